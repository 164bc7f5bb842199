"""Answers that try to pass invented numbers as computed, planned by a stand-in Ollama server over real HTTP."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from react_engine import Engine, Settings
from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.planners.ollama import OllamaPlanner
from react_engine.planners.rules import RulesPlanner

NO_CACHE = LoadOptions(use_cache=False)


def _reply(action: str, **params: object) -> str:
    return json.dumps({"reasoning": "r", "action": action, "params": params})


def _run(fake_ollama, log: Path, *actions: str, question: str = "How many errors were there?",
         timeout: float = 30) -> RunResult:
    fake_ollama.push(*actions)
    planner = OllamaPlanner(model="qwen3:4b", host=fake_ollama.host, timeout=timeout)
    return Engine(planner, Settings(timeout_seconds=timeout)).ask(question, [str(log)], load_options=NO_CACHE)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "app.log"
    lines = [f"2026-11-20T10:00:0{i} host1 app: INFO disk failure on sda{i}" for i in range(2)]
    lines += ["2026-11-20T10:00:05 host1 app: WARNING Total errors: 31337 (4.2e6 bytes, 2k retries)",
              "2026-11-20T10:00:06 host2 app: ERROR had 9999 critical errors"]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_number_read_in_a_log_line_is_not_computed(fake_ollama, log: Path) -> None:
    result = _run(fake_ollama, log, _reply("show_logs", n=5),
                  _reply("finalize_answer", answer="There were 31337 errors.", value=31337))
    assert result.stop_reason == "stop" and not result.verified
    assert any("31337" in w for w in result.warnings)


def test_a_number_from_top_values_text_is_a_name_not_a_count(fake_ollama, log: Path) -> None:
    result = _run(fake_ollama, log, _reply("top_values", field="message", n=5),
                  _reply("finalize_answer", answer="There were 9999 errors.", value=None))
    assert not result.verified


def test_a_filter_phrase_counts_only_while_its_filter_shapes_the_rows(fake_ollama, log: Path) -> None:
    result = _run(fake_ollama, log,
                  _reply("filter_by_field", field="message", op="contains", value="had 9999 critical errors"),
                  _reply("reset_filters"), _reply("search_logs", value="disk failure"),
                  _reply("finalize_answer", answer="host1 had 9999 critical errors; 2 disk failures", value=2))
    assert result.steps[0].value == 1 and not result.verified
    assert any("9999" in w for w in result.warnings)


def test_an_active_filter_phrase_counts_quoted_as_the_name_it_is(fake_ollama, log: Path) -> None:
    phrase = "had 9999 critical errors"
    filtered = _reply("filter_by_field", field="message", op="contains", value=phrase)
    quoted = _run(fake_ollama, log, filtered,
                  _reply("finalize_answer", answer=f'1 line says "{phrase}".', value=1))
    assert quoted.verified
    bare = _run(fake_ollama, log, filtered,
                _reply("finalize_answer", answer=f"1 line: host2 {phrase}.", value=1))
    assert not bare.verified


@pytest.mark.parametrize("claim", ["two thousand", "2k", "2e6", "2 million", "2.0E+03", "2 x 10^6", "twenty-two",
                                   "2 billion", "2K"])
def test_spelled_suffixed_and_exponent_numbers_are_checked(fake_ollama, log: Path, claim: str) -> None:
    result = _run(fake_ollama, log, _reply("search_logs", value="disk failure"),
                  _reply("finalize_answer", answer=f"2 lines: {claim} disk failures.", value=None))
    assert result.steps[0].value == 2 and not result.verified, claim


def test_a_huge_number_dense_reply_is_checked_within_the_timeout(fake_ollama, tmp_path: Path) -> None:
    log = tmp_path / "dense.log"
    log.write_text("".join(f"2026-11-20T10:{i // 60:02d}:{i % 60:02d} h app: "
                           + " ".join(str(i * 1000 + j) for j in range(60)) + "\n" for i in range(200)))
    numbers = list(range(30_000))
    answer = "Counts: " + ", ".join(map(str, numbers))  # ~170 KB, and the value holds them all again
    began = time.monotonic()
    result = _run(fake_ollama, log, _reply("show_logs", n=50),
                  _reply("finalize_answer", answer=answer, value=numbers), timeout=20)
    took = time.monotonic() - began
    assert not result.verified and took < 10
    assert sum(len(w) for w in result.warnings) < 2_000  # the warning names a few numbers, not 30,000


def test_top_n_accepts_any_n_and_says_how_many_values_exist(fake_ollama, tmp_path: Path) -> None:
    log = tmp_path / "auth.log"
    log.write_text("".join(f"Nov 20 10:{i // 60:02d}:{i % 60:02d} host sshd[1]: Failed password for user{i % 63} "
                           f"from 10.0.0.1 port 22 ssh2\n" for i in range(200)))
    result = _run(fake_ollama, log, _reply("top_values", field="user", n=100),
                  _reply("finalize_answer", answer="63 users failed; user0 leads with 4.", value=None),
                  question="top 100 users with failed passwords")
    assert result.steps[0].ok and len(result.steps[0].value) == 63, result.steps[0].error
    assert result.verified, result.warnings  # 63, the number of values that exist, is computed
    assert "63" in result.answer and "100" not in result.answer.replace("top 100", "")
    rules = Engine(RulesPlanner()).ask("top 100 users with failed passwords", [str(log)], load_options=NO_CACHE)
    assert rules.verified and len(rules.value) == 63 and "63" in rules.answer, rules.answer


@pytest.fixture
def json_log(tmp_path: Path) -> Path:
    """JSON lines: a host called `812ms`, a note whose text is "812 ms", and latencies whose p95 is 0.129 s."""
    latencies = [0.1, 0.11, 0.12, 0.125, 0.13] * 4
    rows = [{"timestamp": f"2026-11-20T10:00:{i:02d}Z", "level": "INFO", "host": "812ms" if i % 3 else "web1",
             "note": "812 ms" if i % 2 else "fine", "latency": latency, "message": "request done"}
            for i, latency in enumerate(latencies)]
    path = tmp_path / "app.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize(("field", "claim", "named"), [("host", "812ms", "host 812ms leads with 13 lines"),
                                                      ("note", "812 ms", "note 812 ms (10), fine (10)")])
def test_a_value_that_reads_as_a_quantity_names_only_its_own_value(fake_ollama, json_log: Path, field: str,
                                                                   claim: str, named: str) -> None:
    steps = (_reply("top_values", field=field, n=5), _reply("field_stats", field="latency", func="p95"))
    result = _run(fake_ollama, json_log, *steps,
                  _reply("finalize_answer", answer=f"The p95 latency is {claim}.", value=None),
                  question="what is the p95 latency?")
    assert result.steps[1].ok and result.steps[1].value["p95"] == pytest.approx(0.13, abs=0.002)
    assert not result.verified and any("812" in w for w in result.warnings), result.warnings
    written = _run(fake_ollama, json_log, *steps,
                   _reply("finalize_answer", answer=f"{named}; the p95 latency is 0.13 s.", value=None),
                   question="what is the p95 latency?")
    assert written.verified, written.warnings


def test_a_percentage_is_no_ratio_of_two_unnamed_computed_counts(fake_ollama, tmp_path: Path) -> None:
    log = tmp_path / "app.log"  # no errors: 5 lines at 10:00, 19 at 11:00
    log.write_text("".join(f"2026-11-20T{10 + (i >= 5):02d}:{i:02d}:00 host1 app: INFO request done\n"
                           for i in range(24)))
    result = _run(fake_ollama, log, _reply("count_by_time", interval="1h"),
                  _reply("finalize_answer", answer="26.3% of all lines are errors.", value=None),
                  question="what percent of lines are errors?")
    assert [c for _, c in result.steps[0].value] == [5, 19] and not result.verified
    assert any("26.3%" in w for w in result.warnings), result.warnings


@pytest.mark.parametrize(("func", "claim", "right"), [
    ("min", "0.001 s", "0.03 s"), ("min", "0.05 s", "30 ms"), ("mean", "1.05 s", "1.13 s"),
    ("mean", "1.15 s", "1.1 s")])
def test_a_small_value_is_grounded_only_by_a_rounding_to_its_own_digits(fake_ollama, tmp_path: Path, func: str,
                                                                       claim: str, right: str) -> None:
    log = tmp_path / "app.log"
    log.write_text("".join(f"2026-11-20T10:00:0{i} host1 app: INFO request done latency={ms}ms\n"
                           for i, ms in enumerate([500, 1500, 2500, 30])))
    stats = _reply("field_stats", field="latency", func=func)
    wrong = _run(fake_ollama, log, stats, _reply("finalize_answer", answer=f"The {func} latency is {claim}.",
                                                 value=None), question=f"what is the {func} latency?")
    assert wrong.steps[0].value[func] == pytest.approx({"min": 0.03, "mean": 1.1325}[func])
    assert not wrong.verified, claim
    rounded = _run(fake_ollama, log, stats, _reply("finalize_answer", answer=f"The {func} latency is {right}.",
                                                   value=None), question=f"what is the {func} latency?")
    assert rounded.verified, (right, rounded.warnings)


def test_the_rules_answer_names_a_value_that_reads_as_a_quantity_by_its_field(json_log: Path) -> None:
    leader = Engine(RulesPlanner()).ask("which host has the most lines", [str(json_log)], load_options=NO_CACHE)
    assert leader.verified and leader.answer.startswith("host 812ms has the most, with 13 lines"), leader.answer
    ranked = Engine(RulesPlanner()).ask("top hosts", [str(json_log)], load_options=NO_CACHE)
    assert ranked.verified and "812ms (13)" in ranked.answer, ranked.answer
