"""Answers in the user's words: a refusal names the choices and never a tool or a parameter; a field the log does
not have is said to be missing, not counted as 0; "X or Y" of one field keeps either; a quiet day is one the log
wrote lines on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from react_engine import Engine
from react_engine.logs.options import LoadOptions
from react_engine.planners.rules import RulesPlanner
from react_engine.tools import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
NGINX = ROOT / "sample_logs" / "nginx" / "access.log"
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"
NO_CACHE = LoadOptions(use_cache=False, year=2026)
TOOL_WORDS = re.compile(rf"\b(?:{'|'.join(REGISTRY)})\b|\b\w+=\w+|\bfailed \(")


def _ask(question: str, log: Path):
    return Engine(RulesPlanner()).ask(question, [str(log)], load_options=NO_CACHE)


@pytest.fixture(scope="module")
def wsgi(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Request lines written inside the messages (no method column), with two fields that measure time."""
    methods = ["GET"] * 6 + ["POST"] * 3 + ["DELETE"]
    lines = []
    for i, method in enumerate(methods * 3):
        lines.append(f'2017-05-16 00:{i:02d}:00.008 25746 INFO nova.osapi_compute.wsgi.server [req-{i}] 10.0.0.{i} '
                     f'"{method} /v2/servers/detail HTTP/1.1" status: 200 len: {1800 + i} time: 0.{i + 10}')
        lines.append(f"2017-05-16 00:{i:02d}:30.000 25746 INFO nova.compute.manager [req-{i}] Took {i + 1}.5"
                     " seconds to build instance.")
    path = tmp_path_factory.mktemp("wsgi") / "nova.log"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_methods_written_in_request_lines_are_ranked_where_no_column_holds_them(wsgi: Path) -> None:
    result = _ask("which methods appear?", wsgi)
    assert result.verified and result.stop_reason == "stop", result.answer
    assert "no methods" not in result.answer and "GET (18)" in result.answer and "DELETE (3)" in result.answer
    counted = _ask("how many POST requests?", wsgi)
    assert counted.verified and counted.value == 9


def test_a_log_without_request_lines_has_no_methods() -> None:
    result = _ask("which methods appear?", SYSLOG)
    assert not result.verified and "these logs have no methods" in result.answer


@pytest.mark.parametrize("question", ["how many GET or POST requests?", "how many POST or GET requests?"])
def test_two_values_of_one_field_keep_either_not_both(question: str, wsgi: Path) -> None:
    for log, expected in ((NGINX, None), (wsgi, 27)):
        result = _ask(question, log)
        if expected is None:  # the access log's method column
            lines = NGINX.read_text().splitlines()
            expected = sum('"GET ' in line or '"POST ' in line for line in lines)
        assert result.verified and result.value == expected, result.answer
        assert "GET" in result.answer and "POST" in result.answer and "or" in result.answer


def test_which_is_slower_is_no_count_of_zero_lines() -> None:
    result = _ask("are GET or POST requests slower?", NGINX)
    assert not result.verified and result.partial and "slower" in result.answer
    assert "No log lines matched" not in result.answer and "count is 0" not in result.answer


@pytest.mark.parametrize(("question", "said"), [
    ("what is the p99 duration?", '"duration" could be time (s) or Took (s): ask again naming one'),
    ("what is the p99?", "a 99th percentile of what? Ask for one of"),
    ("what is the average size of responses?", "ask for one of"),
])
def test_a_refusal_says_what_to_ask_in_the_users_words(question: str, said: str, wsgi: Path) -> None:
    result = _ask(question, wsgi)
    assert not result.verified and result.answer.startswith("I could not answer this: "), result.answer
    assert said in result.answer and not TOOL_WORDS.search(result.answer), result.answer
    assert not result.answer.startswith("Partial answer")


@pytest.mark.parametrize("question", ["how many HTTP 500 errors?", "which status codes appear?",
                                      "how many requests returned 404?", "how many errors with status 500?"])
def test_a_field_the_log_does_not_have_is_said_to_be_missing_not_counted_as_zero(question: str) -> None:
    result = _ask(question, SYSLOG)  # syslog: sshd, cron, kernel; no HTTP status anywhere
    assert not result.verified and result.value != 0, result.answer
    assert "these logs have no status codes" in result.answer and not TOOL_WORDS.search(result.answer)
    assert _ask(question.replace("errors with ", "lines with "), NGINX).verified  # a web log has them


def _days_log(tmp_path: Path, per_day: dict[int, int]) -> Path:
    path = tmp_path / "days.log"
    path.write_text("".join(f"2026-11-{day:02d}T{10 + n // 60:02d}:{n % 60:02d}:00Z host app: line {n}\n"
                            for day, n_lines in per_day.items() for n in range(n_lines)))
    return path


def test_the_quietest_day_is_one_the_log_wrote_lines_on(tmp_path: Path) -> None:
    log = _days_log(tmp_path, {1: 30, 2: 7, 5: 12, 6: 9})  # nothing on the 3rd and the 4th: a gap, no quiet day
    result = _ask("which day had the fewest lines?", log)
    assert result.verified and "2026-11-02" in result.answer and "7 lines" in result.answer, result.answer
    assert "Tied" not in result.answer and "2026-11-03" not in result.answer
    assert "days without any line left out" in result.answer
    busiest = _ask("which day had the most lines?", log)
    assert "2026-11-01" in busiest.answer and "left out" not in busiest.answer


@pytest.mark.parametrize("question", ["Percenie", "what is the percentile of latency_ms?",
                                      "what is the percentile of latency_ms per logger?"])
def test_a_percentile_without_its_rank_asks_for_one_instead_of_failing(question: str) -> None:
    result = _ask(question, ROOT / "sample_logs" / "app" / "app.jsonl")
    assert result.stop_reason == "stop" and not result.verified, result.answer
    assert "a percentile without its rank" in result.answer and "p95" in result.answer
