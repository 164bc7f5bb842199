"""Questions pasted into a chat with context around them: a lead-in before the asking word ("we had a failed job,
compare ..."), a line quoted as context before the question proper, examples in brackets of what is asked about
("which 3 programs (crond, ntpd, ...)"). The context names no filter; each value is derived from the structured CSV."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st
from real_logs import real_log

from react_engine.contract.record import RunResult
from react_engine.logs import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.question.reading.examples import without_examples
from react_engine.question.reading.pasted import context_words, with_antecedent, without_pasted
from react_engine.question.reading.question import lead_in


def ask(question: str, path: Path) -> RunResult:
    return Engine(RulesPlanner()).ask(question, [str(path)], load_options=LoadOptions(use_cache=False, year=2026))


def _csv(system: str) -> pd.DataFrame:
    return pd.read_csv(real_log(system, ".log_structured.csv"), dtype=str, keep_default_na=False)


def test_a_lead_in_ends_at_a_comma_before_the_asking_word() -> None:
    for asking in ("compare how many WARN lines with ERROR lines", "how many WARN lines are there?",
                   "which host logged the most?"):
        text = f"we had a failed job, {asking}"
        assert text[lead_in(text):] == asking


def test_context_before_a_comparison_filters_neither_side() -> None:
    levels = _csv("Hadoop").Level
    result = ask("we had a failed job, compare how many WARN lines and how many ERROR lines the log has",
                 real_log("Hadoop"))
    assert result.value == [int((levels == "WARN").sum()), int((levels == "ERROR").sum())], result.answer
    assert result.verified


def test_a_line_pasted_before_the_question_proper_is_no_filter() -> None:
    content = _csv("OpenSSH").Content
    expected = int(content.str.contains(r"^Failed password for .* from 103\.99\.0\.122 port").sum())
    result = ask("I copied 'Failed password for invalid user PlcmSpIp from 103.99.0.122 port 51966 ssh2', how many "
                 "failed password attempts came from 103.99.0.122 in total?", real_log("OpenSSH"))
    assert expected > 1 and result.value == expected and result.verified, result.answer


def test_a_pasted_line_the_question_points_back_at_is_its_subject() -> None:
    for text in ("I keep seeing 'Got exception while serving', how many are there?",
                 "I see 'Got exception while serving' in the log, how often does it happen?"):
        assert without_pasted(text) == text


def test_examples_in_brackets_name_no_filter() -> None:
    components = _csv("Thunderbird").Component.value_counts()
    for question in ("which 3 programs (crond, ntpd, ...) wrote the most lines?",
                     "which 3 programs (e.g. crond, ntpd) wrote the most lines?"):
        result = ask(question, real_log("Thunderbird"))
        assert [v for v, _ in result.value] == list(components.index[:3]), result.answer


@given(st.lists(st.sampled_from([*list("ab ,.()'\""), "e.g. ", "...", "etc", "how many ", "it"]), max_size=20).map("".join))
def test_blanking_keeps_every_other_character_in_place(text: str) -> None:
    for blanked in (without_examples(text), without_pasted(text)):
        assert len(blanked) == len(text)
        assert all(a == b or b == " " for a, b in zip(text, blanked))


def test_a_generic_word_before_the_noun_of_components_names_that_component() -> None:
    components = _csv("HPC").Component
    assert components.eq("node").any()
    for question in ("how many lines did the node component write?", "how many lines did the 'node' component write?"):
        result = ask(question, real_log("HPC"))
        assert result.value == int(components.eq("node").sum()) and result.verified, result.answer
    result = ask("compare how many lines the 'node' component wrote with how many 'switch_module' wrote",
                 real_log("HPC"))
    assert result.value == [int(components.eq("node").sum()), int(components.eq("switch_module").sum())], result.answer


def test_a_quote_before_a_noun_of_lines_or_pointed_back_at_stays_searched() -> None:
    for text in ("the 'PM response took N ms' lines, what is the average time they report?",
                 "the 'PM response took N ms' lines, how many are from kernel?"):
        assert without_pasted(text) == text


def test_what_a_kind_of_thing_did_is_no_ranking_of_its_values() -> None:
    for question in ("what did the attacker do after logging in?", "what did users do?"):
        result = ask(question, real_log("Linux"))
        assert result.value is None and not result.verified, result.answer


def test_what_a_named_value_did_is_its_timeline_and_an_event_after_it_is_not_ignored() -> None:
    lines = real_log("Linux").read_text(errors="replace").splitlines()
    expected = sum("150.183.249.110" in line for line in lines)
    result = ask("what did 150.183.249.110 do?", real_log("Linux"))
    assert expected > 1 and f"on {expected} lines" in result.answer and result.verified, result.answer
    result = ask("what did 150.183.249.110 do after logging in?", real_log("Linux"))
    assert not result.verified, result.answer


def test_a_breakdown_per_two_keys_written_with_qualifiers_is_two_way() -> None:
    log = Path(__file__).resolve().parents[1] / "sample_logs" / "nginx" / "access.log"
    requests = pd.Series(log.read_text().splitlines()).str.extract(r'"([A-Z]+) \S+ [^"]*" (\d{3}) ').dropna()
    expected = {m: {s: int(n) for s, n in row.items() if n} for m, row in pd.crosstab(requests[0], requests[1]).iterrows()}
    result = ask("requests per HTTP method per status code", log)
    assert result.value == expected and result.verified, result.answer
    result = ask("requests per HTTP method per status code", real_log("OpenStack"))  # no such columns: no ranking
    assert result.value is None and not result.verified, result.answer


def test_the_story_a_lead_in_tells_leaves_the_answer_whole() -> None:
    host = _csv("HPC").Node
    result = ask("node-246 keeps flapping according to the on-call, how many lines does node-246 have in this log?",
                 real_log("HPC"))
    assert result.value == int((host == "node-246").sum()) and result.verified, result.answer
    assert context_words("In the staging cluster, how many errors?") == set()
    assert context_words("we had an outage around 3pm, how many errors?") >= {"outage", "3pm"}


def test_a_day_written_in_the_lead_in_places_the_clock_times_of_the_question() -> None:
    table = _csv("Zookeeper")
    times = pd.to_datetime(table.Date + " " + table.Time.str.replace(",", "."))
    inside = (times >= "2015-07-29 17:30") & (times < "2015-07-29 18:00")
    assert inside.any() and times.dt.date.nunique() > 1
    result = ask("quorum trouble on 2015-07-29 around 17:41, how many WARN lines between 17:30 and 18:00?",
                 real_log("Zookeeper"))
    assert result.value == int((inside & (table.Level == "WARN")).sum()) and result.verified, result.answer
    result = ask("Windows Update kicked off on 2016-09-28 early morning, how many lines between 04:30 and 04:45 that "
                 "day?", real_log("Windows"))
    table = _csv("Windows")
    times = pd.to_datetime(table.Date + " " + table.Time)
    expected = int(((times >= "2016-09-28 04:30") & (times < "2016-09-28 04:45")).sum())
    assert result.value == expected and result.verified, result.answer


def test_a_number_placeholder_in_a_quoted_phrase_stands_for_any_number() -> None:
    content = _csv("Spark").Content
    expected = int(content.str.contains(r"took \d+ ms").sum())
    result = ask("how many 'took N ms' lines?", real_log("Spark"))
    assert expected > 0 and result.value == expected and result.verified, result.answer
    broadcast = content.str.extract(r"^Reading broadcast variable \d+ took (\d+) ms$", expand=False).dropna()
    result = ask("on average how long did reading a broadcast variable take ('took N ms')?", real_log("Spark"))
    assert abs(result.value - broadcast.astype(float).mean() / 1000) < 1e-6 and result.verified, result.answer


def test_how_long_one_line_took_is_no_span_of_zero() -> None:
    result = ask("how long did instance a015cf14-84bb-4156-a48d-7c4824ac7a9d take to spawn? the log says 'Took N "
                 "seconds to spawn'", real_log("OpenStack"))
    assert result.value is None and "one line spans no time" in result.answer, result.answer


def test_it_at_the_end_of_the_question_is_the_one_value_the_lead_in_writes() -> None:
    read = with_antecedent("I see /10.10.34.40:39952 in the log, what happened with it?")
    assert read.endswith("what happened with /10.10.34.40:39952?") and read.count("10.10.34.40") == 1, read
    assert with_antecedent("on Dec 10 I saw 1.2.3.4, what happened to it?").endswith("to it?")  # two values
    lines = real_log("Zookeeper").read_text(errors="replace").splitlines()
    expected = sum("/10.10.34.40:39952" in line for line in lines)
    result = ask("I see /10.10.34.40:39952 in the log, what happened with it?", real_log("Zookeeper"))
    assert expected > 0 and f"appears on {expected} lines" in result.answer and result.verified, result.answer


def test_the_first_half_of_the_log_against_the_second() -> None:
    table = _csv("Apache")
    times = pd.to_datetime(table.Time, format="%a %b %d %H:%M:%S %Y")
    middle = times.min() + (times.max() - times.min()) / 2
    rows = table.EventTemplate.str.contains("mod_jk child workerEnv in error state", regex=False)
    expected = [int((rows & (times < middle)).sum()), int((rows & (times >= middle)).sum())]
    assert times.dt.date.nunique() > 1 and expected[0] != expected[1]
    for question in ("how many 'mod_jk child workerEnv in error state' lines in the first half of the log's time span "
                     "compared with the second half?",
                     "compare the first half of the time the log covers with the second half: 'mod_jk child workerEnv "
                     "in error state' lines"):
        result = ask(question, real_log("Apache"))
        assert result.value == expected and result.verified, result.answer


def test_both_halves_asked_without_a_comparison_are_not_the_first_half_alone() -> None:
    result = ask("how many 'is in the unavailable state' lines were in the first half of the time the log covers, "
                 "and how many in the second?", real_log("HPC"))
    assert not result.verified, result.answer
