"""Investigation questions through the rules planner: the kinds of messages, what is unusual or new, what happened
to an entity and what came before an event, each answered from the tools' values and verified."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from real_logs import real_log

from react_engine.contract.record import RunResult
from react_engine.logs import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def ask(question: str, path: Path | str) -> RunResult:
    result = Engine(RulesPlanner()).ask(question, [str(path)], load_options=LoadOptions(use_cache=False))
    assert result.stop_reason == "stop" and result.verified, result.answer
    return result


def _table(result: RunResult) -> dict:
    return next(s.value for s in reversed(result.steps) if s.kind == "tool" and isinstance(s.value, dict))


def _truth(system: str) -> pd.DataFrame:
    return pd.read_csv(real_log(system, ".log_structured.csv"))


def test_summarize_the_errors_gives_the_kinds_of_error() -> None:
    truth = _truth("Apache")
    expected = truth.loc[truth["Level"] == "error", "EventTemplate"].value_counts()
    result = ask("summarize the errors", real_log("Apache"))
    table = _table(result)
    assert table["patterns"] == len(expected)
    assert [r[0] for r in table["rows"]] == expected.tolist()
    assert "mod_jk child workerEnv in error state <*>" in result.answer and f"{expected.iloc[0]:,}" in result.answer


def test_why_were_there_warnings_shows_their_patterns_not_a_cause() -> None:
    truth = _truth("OpenStack")
    warnings = truth[truth["Level"] == "WARNING"]
    result = ask("why were there warnings?", real_log("OpenStack"))
    top = _table(result)["rows"][0]
    assert top[0] == warnings["EventTemplate"].value_counts().iloc[0] == 30
    assert top[2] == "Unknown base file: <*>"
    assert "because" not in result.answer.lower()


def test_what_happened_to_a_block_is_its_timeline() -> None:
    block = "blk_-8775602795571523802"
    truth = _truth("HDFS")
    naming = truth[truth["Content"].str.contains(block, regex=False)]
    result = ask(f"what happened to {block}?", real_log("HDFS"))
    table = _table(result)
    assert table["lines"] == len(naming)
    assert [r[1] for r in table["rows"]] == ["Deleting block <*> file <*>"] * len(naming)
    assert [r[0] for r in table["rows"]] == sorted(r[0] for r in table["rows"])
    assert sorted(r[2] for r in table["rows"]) == sorted(naming["Content"])  # each line's message as logged
    assert all(message in result.answer for message in naming["Content"])  # not its pattern


def test_what_is_unusual_states_its_method() -> None:
    result = ask("what is unusual in this log?", real_log("HDFS"))
    assert "median" in result.answer and "MAD" in result.answer
    assert {s.action for s in result.steps} >= {"unusual", "message_patterns"}


def test_anything_weird_in_the_last_hour_lists_the_patterns_first_seen_then() -> None:
    result = ask("anything weird in the last hour", SAMPLES)
    table = _table(result)
    assert table["method"].startswith("templates whose first line")
    assert all(r[3] >= table["method"].rsplit(" ", 1)[1] for r in table["rows"])


def test_what_came_before_says_it_is_context() -> None:
    result = ask("what happened before 'Got exception while serving'?", real_log("HDFS"))
    table = _table(result)
    assert table["occurrences"] >= 1 and sum(r[0] for r in table["rows"]) == table["lines_before"]
    assert "context, not a diagnosis" in result.answer


def test_the_window_of_lines_before_the_first_error_is_computed_not_written() -> None:
    result = ask("What happened before the first error?", real_log("Apache"))
    window = _table(result)["window"]
    assert f"In the {window} lines before" in result.answer and result.verified, result.answer


def test_patterns_as_csv_rows(tmp_path: Path) -> None:
    from react_engine.answer.tables import result_table
    from react_engine.app.cli.render import csv_text

    table = result_table(ask("summarize the errors", real_log("Apache")))
    assert table is not None and table.kind == "table"
    text = csv_text(table).splitlines()
    assert text[0] == "count,share,template,first_seen,last_seen,example"
    assert text[1].startswith("539,")


@pytest.mark.parametrize("question", ["what kinds of errors are there?", "what went wrong?"])
def test_other_wordings_of_patterns(question: str) -> None:
    assert ask(question, real_log("Apache")).steps[-2].action == "message_patterns"
