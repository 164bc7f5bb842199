"""Question understanding: the per-load vocabulary, typo correction, dates in words, the interpretation of a run
and the question notes model planners get.

Real-log answers are compared with values computed from loghub's structured CSVs by
`scripts/operator_questions.py` (pandas, independent of the engine); they skip when ../shared/real_logs is absent.
"""

from __future__ import annotations

import importlib.util
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_logs import REAL_LOGS

from react_engine import Engine, Settings
from react_engine.compile.plan import build_plan
from react_engine.contract.planner import ContextView, Planner, PlannerReply, PlanRequest
from react_engine.lexicon.known_words import lexicon_words
from react_engine.logs import LoadOptions, load
from react_engine.loop.context import SUGGESTED, build_prompt, estimate_tokens
from react_engine.planners.rules import RulesPlanner
from react_engine.question import Vocabulary, dates
from react_engine.question.spelling import correct
from react_engine.tools import REGISTRY

ROOT = Path(__file__).parents[1]
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"


def _operator_questions() -> Any:
    spec = importlib.util.spec_from_file_location("operator_questions", ROOT / "scripts" / "operator_questions.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OPERATOR = _operator_questions()


def frame(messages: list[str], **columns: list[Any]) -> pd.DataFrame:
    n = len(messages)
    data = {"timestamp": pd.date_range("2008-11-09 20:00", periods=n, freq="h", tz="UTC"), "message": messages,
            "source": ["/logs/HDFS_2k.log"] * n, "line": list(range(1, n + 1))}
    return pd.DataFrame(data | columns)


# --------------------------------------------------------------------------------------------- vocabulary

def test_the_vocabulary_holds_names_with_row_counts_words_and_entity_types() -> None:
    f = frame(["Deleting block blk_1 file /a", "Deleting block blk_2 file /b", "connection from 10.0.0.1"],
              component=["dfs.FSDataset", "dfs.FSDataset", "sshd(pam_unix)"], pid=["7", "7", "9"])
    v = Vocabulary.build(f)
    assert v.values["component"] == {"dfs.FSDataset": 2, "sshd(pam_unix)": 1}
    assert v.values["pid"]["7"] == 2
    assert v.token_rows("deleting") == 2 and v.token_rows("blocks") == 2  # plural found by its singular
    assert "ip" in v.entity_types and "mac" not in v.entity_types
    assert v.names_log("hdfs") and not v.names_log("block")
    assert v.first == f["timestamp"].min() and v.last == f["timestamp"].max()


def test_holders_find_the_column_that_holds_a_name() -> None:
    v = Vocabulary.build(frame(["a", "b", "c", "d"], component=["sshd(pam_unix)", "spark.SecurityManager",
                                                                "spark.CacheManager", "rm.RMContainerAllocator"]))
    assert v.holders("SSHD") == [("component", "sshd(pam_unix)", 1)]
    assert v.holders("rmcontainerallocator") == [("component", "rm.RMContainerAllocator", 1)]
    assert v.holders("spark") == []  # a dotted part shared by two names names neither


# --------------------------------------------------------------------------------------------- spelling

def test_typos_are_read_as_known_words_and_stated() -> None:
    known, whole = lexicon_words()
    text, corrections = correct('how many erors and pasword failures betwen "pasword" and Spark?', known,
                                [*sorted(whole), "spark"])
    assert text == 'how many errors and password failures between "pasword" and Spark?'
    assert [str(c) for c in corrections] == ['read "erors" as "errors"', 'read "pasword" as "password"',
                                             'read "betwen" as "between"']


@pytest.mark.parametrize(("written", "logged", "read_as"), [("sesions", "session", "session"),
                                                           ("partitons", "partition", "partition"),
                                                           ("sesions", "sessions", "sessions")])
def test_a_misspelt_plural_is_read_as_the_singular_the_rows_use(written: str, logged: str, read_as: str) -> None:
    text, corrections = correct(f"how many {written} were opened?", frozenset(), [logged, "opened"])
    assert text == f"how many {read_as} were opened?"
    assert [(c.written, c.read_as) for c in corrections] == [(written, read_as)]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_text_corrects_to_text_without_crashing(text: str) -> None:
    known, whole = lexicon_words()
    fixed, corrections = correct(text, known, sorted(whole))
    assert isinstance(fixed, str)
    for c in corrections:
        assert c.written in text and c.read_as in fixed and c.written.lower() not in known


# --------------------------------------------------------------------------------------------- dates

FIRST, LAST = pd.Timestamp("2005-06-03", tz="UTC"), pd.Timestamp("2006-01-03", tz="UTC")


@pytest.mark.parametrize(("written", "kind", "start", "end"), [
    (("July", "17", None), "mdy", "2005-07-17", "2005-07-18"),  # the year in which the log has July 17
    (("Jan", "2", None), "mdy", "2006-01-02", "2006-01-03"),
    (("December", "4", "2005"), "mdy", "2005-12-04", "2005-12-05"),
    (("29", "Sept", "2016"), "dmy", "2016-09-29", "2016-09-30"),
    (("July", "2005"), "my", "2005-07-01", "2005-08-01"),
    (("2005",), "y", "2005-01-01", "2006-01-01"),
])
def test_dates_in_words(written: tuple[str | None, ...], kind: str, start: str, end: str) -> None:
    span = dates.read(written, kind, FIRST, LAST)
    assert span is not None
    assert (span.start, span.end) == (datetime.fromisoformat(start), datetime.fromisoformat(end))


def test_a_date_that_does_not_exist_is_refused() -> None:
    assert dates.read(("February", "30", "2005"), "mdy", FIRST, LAST) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([*list("0123456789 :-thsndr"), "July ", "Sept ", "between ", "and ", "around ", "in ", "of ", "first hour ", "the log "]),
                max_size=20).map("".join))
def test_any_time_words_give_a_window_or_none(text: str) -> None:
    v = Vocabulary.build(frame(["x", "y"]))
    view = ContextView(question=f"how many lines {text}?", iteration=1, max_iterations=5,
                       now="2008-11-09T21:00:00+00:00", total_rows=2, row_count=2,
                       columns=["timestamp", "message"], vocabulary=v)
    plan = build_plan(view.question, view, True)
    assert plan.problem or plan.calls
    window = plan.interpretation().time_window
    if window is not None:
        assert pd.Timestamp(window.start) <= pd.Timestamp(window.end)


# --------------------------------------------------------------------------------------------- whole runs

def test_a_second_clock_time_keeps_the_first_ones_date() -> None:
    f = frame([f"line {i}" for i in range(60)])
    result = Engine(RulesPlanner()).ask("How many lines between 2008-11-10 01:00 and 03:00?", frame=f)
    assert result.interpretation is not None and result.interpretation.time_window is not None
    assert result.interpretation.time_window.end.startswith("2008-11-10T03:00")
    stamps = f["timestamp"]
    assert result.value == int(((stamps >= pd.Timestamp("2008-11-10T01:00", tz="UTC"))
                                & (stamps <= pd.Timestamp("2008-11-10T03:00", tz="UTC"))).sum())


def test_corrections_and_ignored_words_show_in_the_answer_and_the_interpretation() -> None:
    f = frame(["Failed password for root", "Accepted password for bob", "Failed password for admin"])
    result = Engine(RulesPlanner()).ask("pasword failures, mate?", frame=f)
    assert result.value == 2 and result.partial and not result.verified  # "mate" is linked to nothing
    interpretation = result.interpretation
    assert interpretation is not None
    assert [(c.written, c.read_as) for c in interpretation.corrections] == [("pasword", "password")]
    assert interpretation.ignored == ["mate"] and interpretation.shape == "count"
    assert result.answer.startswith('I did not read "mate"') and 'read "pasword" as "password"' in result.answer


def test_words_of_the_log_and_function_words_leave_nothing_unread() -> None:
    f = frame(["WakeLock acquired by rdd_42_3", "Verification succeeded for blk_1", "Deleting block blk_2"])
    for question in ("how many wake locks?", "how many rdd lines did it say?", "how many blocks had verificaton succeed?"):
        result = Engine(RulesPlanner()).ask(question, frame=f)
        assert result.verified and not result.partial and result.value == 1, (question, result.answer)


def test_a_thing_the_log_never_mentions_is_a_zero_that_says_so_unverified() -> None:
    f = frame(["Deleting block blk_1", "Receiving block blk_2"])
    result = Engine(RulesPlanner()).ask("How many giraffes?", frame=f)
    assert result.value == 0 and not result.verified and not result.partial
    assert result.answer.startswith('No line of this log uses a word starting "giraff"')


def test_words_the_log_uses_that_never_meet_on_one_line_are_refused() -> None:
    f = frame(["Deleting block blk_1", "Receiving block blk_2", "Receiving packet 3"] * 10)
    result = Engine(RulesPlanner()).ask("How many packets were deleted?", frame=f)
    assert result.value is None and "rephrase" in result.answer


def test_a_question_it_cannot_map_is_refused_in_the_logs_own_words() -> None:
    f = frame(["Deleting block blk_1", "Receiving block blk_2"], component=["dfs.FSDataset", "dfs.DataNode"],
              level_raw=["INFO", "WARN"])
    result = Engine(RulesPlanner()).ask("Why did the giraffes leave?", frame=f)
    assert result.value is None
    assert "dfs.FSDataset" in result.answer and "WARN" in result.answer and "modem" not in result.answer


class _Recording(Planner):
    """A model-like planner that records its prompts and counts."""

    name, calls_model = "recording", True

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def plan(self, request: PlanRequest) -> PlannerReply:
        self.prompts.append(request.prompt)
        action = {"action": "get_log_count", "params": {}} if len(self.prompts) == 1 else \
            {"action": "finalize_answer", "params": {"answer": "done"}}
        return PlannerReply(content=json.dumps({"reasoning": "test"} | action))


@pytest.mark.parametrize("rows", [1_000, 50_000])
def test_model_planners_get_short_question_notes_with_the_rules_next_action(rows: int) -> None:
    f = load([str(SYSLOG)], LoadOptions(year=2026, use_cache=False))
    f = pd.concat([f] * (rows // len(f) + 1), ignore_index=True).iloc[:rows]
    planner = _Recording()
    engine = Engine(planner, Settings(max_iterations=3), advisor=RulesPlanner())
    engine.ask("how many failed pasword lines from sshd?", frame=f)
    prompt = planner.prompts[0]
    notes = next(line for line in prompt.splitlines() if line.startswith("NOTES: "))
    assert estimate_tokens(notes) <= 80
    assert "pasword->password" in notes  # the rules' next action is the example reply, not repeated in the notes
    assert '"action": "filter_by_field", "params": {"field": "component"' in prompt.split(SUGGESTED)[1]
    view = ContextView(question="q", iteration=1, max_iterations=3, now=None, total_rows=rows, row_count=rows,
                       columns=list(f.columns), notes=notes[len("NOTES: "):])
    assert build_prompt(view, list(REGISTRY.values()), 1000, history=5, samples=3, sample_chars=200).tokens <= 1000


# --------------------------------------------------------------------------------------------- real logs

SETS = {"tuned": OPERATOR.QUESTIONS, "fresh": OPERATOR.FRESH, "wordy": OPERATOR.WORDY}
REAL = [(name, system, question) for name, questions_by_system in SETS.items()
        for system, questions in questions_by_system.items() for question, _ in questions]
KNOWN_GAPS = {
    ("Linux", "How many connections from distinct IPs did ftpd log?"):
        "the expected value counts IPs on every ftpd line; the planner keeps the 'connection' lines (39 of 40)",
    ("Proxifier", "How many connections were closed?"):
        "Proxifier writes a closed connection as 'close, N bytes sent', with no word for connection",
    ("Proxifier", "which program made the most connections through the proxy?"):
        "Proxifier writes a connection as 'open through proxy', with no word for connection",
}


@pytest.fixture(scope="module")
def real_frames() -> dict[str, tuple[pd.DataFrame, pd.DataFrame]]:
    return {}


@pytest.mark.parametrize(("name", "system", "question"), REAL, ids=[f"{n} {s}: {q}" for n, s, q in REAL])
def test_operator_questions_on_real_logs(real_frames, name: str, system: str, question: str) -> None:
    if not REAL_LOGS.is_dir():
        pytest.skip(f"{REAL_LOGS} is absent: put the loghub samples there to run these")
    if (system, question) in KNOWN_GAPS:
        pytest.xfail(KNOWN_GAPS[(system, question)])
    if system not in real_frames:
        real_frames[system] = OPERATOR.frames(REAL_LOGS, system)
    f, truth_rows = real_frames[system]
    truth = dict(SETS[name][system])[question]
    result = Engine(RulesPlanner(), Settings(max_iterations=12)).ask(question, frame=f)
    assert OPERATOR.judge(truth(truth_rows), result.value, result.verified) == "ok", result.answer


@pytest.mark.parametrize("question", ["How many lines containing i.e?", "how many lines with i.e?"])
def test_a_text_with_no_digit_the_log_never_writes_is_a_zero_unverified(question: str) -> None:
    """"i.e" is written by no line: the zero says the log does not use it, it verifies no count."""
    f = frame(["Deleting block blk_1", "Receiving block blk_2 i.e. the second"])
    result = Engine(RulesPlanner()).ask(question, frame=f.iloc[:1])
    assert result.value == 0 and not result.verified, result.answer


def test_an_id_the_log_never_writes_is_a_verified_zero() -> None:
    f = frame(["Deleting block blk_1", "Receiving block blk_2"])
    result = Engine(RulesPlanner()).ask("how many lines mention blk_3?", frame=f)
    assert result.value == 0 and result.verified, result.answer
