"""The one tool with a side effect: writing the current rows to a file, only under the output directory."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, TextIO

from pydantic import Field

from react_engine.errors import ToolError
from react_engine.logs.text import with_raw
from react_engine.rows.rowops import chunks, count
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.results import Exported

CHUNK_ROWS = 50_000


class ExportResultsParams(Params):
    path: str = Field(min_length=1, description="file name relative to the output directory, e.g. errors.csv")
    format: Literal["csv", "jsonl"] = Field("csv", description="csv, or jsonl (one JSON object per line)")


@tool("export_results", "write the current rows to a file (needs approval)", ExportResultsParams, Exported,
      requires_approval=True)
def export_results(params: ExportResultsParams, ctx: ToolContext) -> ToolResult:
    target = safe_target(ctx.output_dir, params.path, overwrite=ctx.allow_overwrite, inputs=ctx.inputs)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with target.open("w" if ctx.allow_overwrite else "x", encoding="utf-8", newline="") as out:
            _write(ctx, out, params.format)
    except FileExistsError:
        raise ToolError(f"{target} already exists; choose another file name") from None
    except BaseException as exc:
        target.unlink(missing_ok=True)  # no partial file is left behind
        if isinstance(exc, OSError):
            raise ToolError(f"cannot write {target}: {exc.strerror or exc}") from None
        raise
    return ToolResult(value=Exported(path=str(target), rows=count(ctx.rows), format=params.format),
                      summary=f"export {count(ctx.rows):,} rows -> {target} ({params.format})")


def _write(ctx: ToolContext, out: TextIO, format: str) -> None:
    """The current rows (a partition at a time) in chunks, stopping if the call's deadline passes."""
    first = True
    for part in chunks(ctx.rows):
        for start in range(0, max(len(part), 1), CHUNK_ROWS):
            ctx.check_deadline()
            piece = with_raw(part.iloc[start : start + CHUNK_ROWS])
            if format == "csv":
                piece.to_csv(out, index=False, header=first)
            elif len(piece):
                piece.to_json(out, orient="records", lines=True, date_format="iso")
            first = False


def safe_target(base: Path, path: str, *, overwrite: bool, inputs: Sequence[Path] = ()) -> Path:
    """`path` resolved under `base` (symlinks followed); ToolError when it would escape `base` or replace a file
    that is not `overwrite`-able: any file unless `overwrite`, and never a loaded log or a file with other links."""
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
    if target.exists():
        _check_replaceable(target, overwrite, inputs)
    return target


def _check_replaceable(target: Path, overwrite: bool, inputs: Sequence[Path]) -> None:
    if not overwrite:
        raise ToolError(f"{target} already exists; choose another file name (or rerun with --overwrite)")
    status = target.stat()
    if any(_same_file(status, p) for p in inputs):
        raise ToolError(f"{target} is one of the loaded logs and is never overwritten; choose another file name")
    if status.st_nlink > 1:
        raise ToolError(f"{target} has other hard links, so writing it would change a file elsewhere; "
                        "choose another file name")


def _same_file(status: os.stat_result, path: Path) -> bool:
    try:
        other = path.stat()
    except OSError:
        return False
    return (other.st_dev, other.st_ino) == (status.st_dev, status.st_ino)
