"""Reading "export / save / write <rows> to FILE [as csv|jsonl]" into export_results calls, and the rules planner
writing the rows only once the user approved."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from react_engine.loop.approval import Approver
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.question.reading.export_words import read_export

APP = Path(__file__).resolve().parents[1] / "sample_logs" / "app"


@pytest.mark.parametrize(("question", "rows", "files"), [
    ("export errors to errors.csv", "errors", [("errors.csv", "csv")]),
    ("save the lines mentioning timeout to t.jsonl", "the lines mentioning timeout", [("t.jsonl", "jsonl")]),
    ("write all lines to a.csv and b.jsonl", "all lines", [("a.csv", "csv"), ("b.jsonl", "jsonl")]),
    ("Export warnings from web01 into out/w.txt as jsonl.", "warnings from web01", [("out/w.txt", "jsonl")]),
    ("please dump the results to r.json", "", [("r.json", "jsonl")]),
    ("export to everything.csv", "", [("everything.csv", "csv")]),
    ("save errors to x.jsonl as csv", "errors", [("x.jsonl", "csv")]),
])
def test_an_export_names_its_rows_and_files(question: str, rows: str, files: list[tuple[str, str]]) -> None:
    found = read_export(question)
    assert found is not None and found.rows == rows and list(found.files) == files


@pytest.mark.parametrize("question", [
    "how many errors were written to disk?", "write errors to disk", "export errors", "which exports failed?",
    "how many lines mention save to file.csv?",
])
def test_a_question_that_asks_for_no_file_is_no_export(question: str) -> None:
    assert read_export(question) is None


NAME = st.from_regex(r"[a-z][a-z0-9_]{0,8}(/[a-z0-9_]{1,6})?\.(csv|jsonl|log|txt)", fullmatch=True)


@given(verb=st.sampled_from(["export", "save", "write", "Export", "SAVE"]),
       rows=st.sampled_from(["", "errors", "the lines mentioning timeout", "warnings from web01"]),
       names=st.lists(NAME, min_size=1, max_size=3, unique=True),
       fmt=st.sampled_from([None, "csv", "jsonl"]), end=st.sampled_from(["", ".", "?", " "]))
def test_every_file_named_is_read_with_its_format(verb: str, rows: str, names: list[str], fmt: str | None,
                                                  end: str) -> None:
    question = f"{verb} {rows} to {' and '.join(names)}" + (f" as {fmt}" if fmt else "") + end
    found = read_export(question)
    assert found is not None and found.rows == rows
    assert [n for n, _ in found.files] == names
    expected = [fmt or ("jsonl" if n.endswith(".jsonl") else "csv") for n in names]
    assert [f for _, f in found.files] == expected


def _ask(question: str, tmp_path: Path, approver: Approver) -> tuple[Engine, object]:
    engine = Engine(RulesPlanner(), approver=approver, output_dir=tmp_path)
    return engine, engine.ask(question, [APP])


def test_the_rules_planner_writes_the_rows_once_approved(tmp_path: Path) -> None:
    asked: list[str] = []
    approver = Approver(ask=lambda text: asked.append(text) or True)
    _, result = _ask("export errors to errors.csv", tmp_path, approver)
    assert [s.action for s in result.steps] == ["filter_by_severity", "export_results", "finalize_answer"]
    assert result.verified and result.value == {"path": str(tmp_path / "errors.csv"), "rows": 156, "format": "csv"}
    assert len(asked) == 1 and "errors.csv" in asked[0]
    assert len((tmp_path / "errors.csv").read_text().splitlines()) == 157


def test_a_write_not_approved_is_named_and_the_next_file_is_still_asked(tmp_path: Path) -> None:
    answers = iter([False, True])
    _, result = _ask("write errors to a.csv and b.jsonl", tmp_path, Approver(ask=lambda text: next(answers)))
    assert [s.kind for s in result.steps] == ["tool", "denied", "tool", "final"]
    assert not (tmp_path / "a.csv").exists() and (tmp_path / "b.jsonl").exists()
    assert "a.csv" in result.answer and "not approved" in result.answer and "156" in result.answer


def test_time_waiting_for_an_approval_is_not_the_runs(tmp_path: Path) -> None:
    import time

    def slow(text: str) -> bool:
        time.sleep(1.2)
        return True

    engine = Engine(RulesPlanner(), approver=Approver(ask=slow), output_dir=tmp_path)
    engine.settings = engine.settings.model_copy(update={"timeout_seconds": 1.0})
    result = engine.ask("export errors to slow.csv", [APP])
    assert result.stop_reason == "stop" and (tmp_path / "slow.csv").exists()
    assert result.statistics.execution_time_seconds < 1.0
