"""The one tool with a side effect: writing the current rows to a file, only under the output directory."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from react_engine.errors import ToolError
from react_engine.rowops import chunks, count
from react_engine.tools.base import Params, ToolContext, ToolResult, tool


class ExportResultsParams(Params):
    path: str = Field(min_length=1, description="file name relative to the output directory, e.g. errors.csv")
    format: Literal["csv", "jsonl"] = Field("csv", description="csv, or jsonl (one JSON object per line)")


@tool("export_results", "write the current rows to a file (needs approval)", ExportResultsParams,
      requires_approval=True)
def export_results(params: ExportResultsParams, ctx: ToolContext) -> ToolResult:
    target = safe_target(ctx.output_dir, params.path, overwrite=ctx.allow_overwrite)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with target.open("w" if ctx.allow_overwrite else "x", encoding="utf-8", newline="") as out:
            for i, part in enumerate(chunks(ctx.rows)):
                if params.format == "csv":
                    part.to_csv(out, index=False, header=i == 0)
                else:
                    part.to_json(out, orient="records", lines=True, date_format="iso")
    except FileExistsError:
        raise ToolError(f"{target} already exists; choose another file name") from None
    except OSError as exc:
        raise ToolError(f"cannot write {target}: {exc.strerror or exc}") from None
    return ToolResult(value={"path": str(target), "rows": count(ctx.rows), "format": params.format},
                      summary=f"export {count(ctx.rows):,} rows -> {target} ({params.format})")


def safe_target(base: Path, path: str, *, overwrite: bool) -> Path:
    """`path` resolved under `base` (symlinks followed); ToolError when it would escape `base` or clobber a file."""
    root = base.resolve()
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
        raise ToolError(f"cannot write {path!r}: files may only be written under {root}, with a plain file name "
                        "such as results.csv (no control characters)")
    try:
        target = (root / path).resolve()  # an absolute `path` replaces `root` here and is then rejected below
    except (OSError, ValueError) as exc:
        raise ToolError(f"cannot use path {path!r}: {exc}") from None
    if target == root or not target.is_relative_to(root):
        raise ToolError(f"cannot write {path!r}: files may only be written under {root}; "
                        "give a relative file name such as results.csv")
    if target.is_dir():
        raise ToolError(f"{target} is a directory; give a file name")
    if target.exists() and not overwrite:
        raise ToolError(f"{target} already exists; choose another file name")
    return target
