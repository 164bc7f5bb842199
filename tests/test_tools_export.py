"""export_results writes the current rows, only under the output directory, never over a file unless allowed."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from tool_frames import context, frame, run

from react_engine.errors import ToolError
from react_engine.tools import REGISTRY


def rows() -> tuple[pd.DataFrame, pd.DataFrame]:
    df = frame([{"message": "a, \"quoted\"", "status": 404}, {"message": "b\nnext line"}, {"message": "c"}])
    return df, df.loc[[100, 102]]


def test_export_requires_approval() -> None:
    assert REGISTRY["export_results"].requires_approval
    assert not any(t.requires_approval for name, t in REGISTRY.items() if name != "export_results")


def test_csv_round_trips_the_current_rows(tmp_path: Path) -> None:
    df, current = rows()
    result = run("export_results", context(df, current, output_dir=tmp_path), path="out/errors.csv")
    written = tmp_path / "out" / "errors.csv"
    assert result.value.recorded() == {"path": str(written), "rows": 2, "format": "csv"}
    back = pd.read_csv(written, dtype=str, keep_default_na=False)
    assert list(back["raw"]) == list(current["raw"]) and list(back["line"]) == ["1", "3"]


def test_jsonl_has_one_object_per_row(tmp_path: Path) -> None:
    df, _current = rows()
    run("export_results", context(df, df, output_dir=tmp_path), path="all.jsonl", format="jsonl")
    records = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    assert [r["message"] for r in records] == list(df["message"])
    assert records[0]["status"] == 404 and records[1]["status"] is None


@pytest.mark.parametrize("path", ["../escape.csv", "/etc/passwd", "a/../../escape.csv", ".", "sub/.."])
def test_paths_outside_the_output_directory_are_refused(tmp_path: Path, path: str) -> None:
    base = tmp_path / "out"
    base.mkdir()
    with pytest.raises(ToolError, match="only be written under|is a directory"):
        run("export_results", context(rows()[0], output_dir=base), path=path)
    assert list(tmp_path.iterdir()) == [base] and not list(base.iterdir())


def test_symlinks_leading_outside_are_refused(tmp_path: Path) -> None:
    base, outside = tmp_path / "out", tmp_path / "outside"
    base.mkdir()
    outside.mkdir()
    (base / "link").symlink_to(outside, target_is_directory=True)
    (base / "file.csv").symlink_to(outside / "target.csv")
    for path in ("link/x.csv", "file.csv"):
        with pytest.raises(ToolError, match="only be written under"):
            run("export_results", context(rows()[0], output_dir=base), path=path)
    assert not list(outside.iterdir())


def test_existing_files_are_kept_unless_overwrite_is_allowed(tmp_path: Path) -> None:
    target = tmp_path / "keep.csv"
    target.write_text("precious")
    df, current = rows()
    with pytest.raises(ToolError, match="already exists"):
        run("export_results", context(df, current, output_dir=tmp_path), path="keep.csv")
    assert target.read_text() == "precious"
    run("export_results", context(df, current, output_dir=tmp_path, allow_overwrite=True), path="keep.csv")
    assert len(pd.read_csv(target)) == 2


def test_a_loaded_log_is_never_overwritten(tmp_path: Path) -> None:
    log = tmp_path / "app.log"
    log.write_text("the input\n")
    df, current = rows()
    with pytest.raises(ToolError, match="one of the loaded logs"):
        run("export_results", context(df, current, output_dir=tmp_path, allow_overwrite=True, inputs=(log,)),
            path="app.log")
    assert log.read_text() == "the input\n"


def test_a_target_with_other_hard_links_is_refused(tmp_path: Path) -> None:
    outside, out = tmp_path / "outside.txt", tmp_path / "out"
    outside.write_text("elsewhere")
    out.mkdir()
    (out / "link.csv").hardlink_to(outside)
    df, current = rows()
    with pytest.raises(ToolError, match="hard links"):
        run("export_results", context(df, current, output_dir=out, allow_overwrite=True), path="link.csv")
    assert outside.read_text() == "elsewhere"


def test_a_large_export_stops_at_its_deadline_and_leaves_no_partial_file(tmp_path: Path) -> None:
    df = frame([{"message": f"line {i}"} for i in range(5)])
    ctx = context(df, output_dir=tmp_path)
    ctx.deadline = 0.0  # long past
    with pytest.raises(ToolError, match="time limit"):
        run("export_results", ctx, path="late.csv")
    assert not (tmp_path / "late.csv").exists()


def test_lean_rows_are_written_with_each_entry_as_written(tmp_path: Path) -> None:
    df, current = rows()
    lean = df.drop(columns=["raw"]).assign(raw_head=[r[: len(r) - len(m)] for r, m in zip(df["raw"], df["message"],
                                                                                           strict=True)])
    run("export_results", context(lean, lean.loc[current.index], output_dir=tmp_path), path="lean.csv")
    back = pd.read_csv(tmp_path / "lean.csv", dtype=str, keep_default_na=False)
    assert "raw_head" not in back and list(back["raw"]) == list(current["raw"])
    assert list(back.columns) == [c for c in df.columns if c != "raw"] + ["raw"]
