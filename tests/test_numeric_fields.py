"""Numeric fields inside messages: found from a sample of messages, named from the text beside them, read as
numbers (sizes in bytes, durations in seconds) from every row."""

from __future__ import annotations

import re
import time

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs import fields
from react_engine.logs.fields import SIZE_UNITS, TIME_UNITS, discover, fields_in, read
from react_engine.tools.located import located
from tests.real_logs import real_log

KEYS = st.from_regex(r"[a-z][a-z_]{1,8}", fullmatch=True).filter(lambda k: not k.endswith("id"))
NUMBERS = st.one_of(st.integers(-10**9, 10**9), st.decimals(0, 10**6, places=3).map(float))


def _written(number: float) -> str:
    return str(number) if isinstance(number, int) else f"{number:.3f}"


def _one(messages: list[str], name: str) -> pd.Series:
    fields = {f.name: f for f in discover(messages)}
    assert name in fields, f"{name!r} not in {sorted(fields)}"
    return read(pd.Series(messages), fields[name])


@given(st.dictionaries(KEYS, NUMBERS, min_size=1, max_size=4), st.sampled_from(["=", ": "]))
def test_key_value_pairs_read_back(pairs: dict[str, float], sep: str) -> None:
    message = "done " + " ".join(f"{k}{sep}{_written(v)}" for k, v in pairs.items())
    for key, number in pairs.items():
        got = _one([message, "no numbers here"], key)
        assert got.iloc[0] == pytest.approx(float(_written(number)))
        assert pd.isna(got.iloc[1])


@given(st.lists(st.tuples(st.sampled_from(["took {} ms", "len: {}", "Took {} seconds", "time={} s", "no number"]),
                          NUMBERS), min_size=1, max_size=40), st.integers(1, 7))
def test_a_field_read_in_parts_in_threads_is_read_as_whole(rows: list[tuple[str, float]], part: int) -> None:
    messages = pd.Series([shape.format(_written(n)) for shape, n in rows], index=range(5, 5 + len(rows)))
    for field in discover(list(messages)):
        whole = read(messages, field)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(fields, "READ_ROWS", part)
            pd.testing.assert_series_equal(read(messages, field), whole)


@given(st.decimals(0, 10**5, places=2).map(float), st.sampled_from(sorted(SIZE_UNITS | TIME_UNITS)))
def test_numbers_with_units_are_scaled(number: float, unit: str) -> None:
    message = f"stored block (estimated size {number:.2f} {unit}, ok)"
    got = _one([message], "size")
    scale = SIZE_UNITS.get(unit.lower()) or TIME_UNITS[unit.lower()]
    assert got.iloc[0] == pytest.approx(round(number, 2) * scale)


@given(st.integers(0, 99), st.integers(0, 59), st.integers(0, 59), st.booleans())
def test_clock_durations_are_seconds(hours: int, minutes: int, seconds: int, long: bool) -> None:
    written = f"{hours:02d}:{minutes:02d}:{seconds:02d}" if long else f"{minutes:02d}:{seconds:02d}"
    got = _one([f"close, lifetime {written}"], "lifetime")
    assert got.iloc[0] == (hours * 3600 if long else 0) + minutes * 60 + seconds


def test_names_come_from_the_text_beside_them() -> None:
    message = "close, 1184 bytes (1.15 KB) sent, 3180 bytes received, lifetime 00:03"
    assert [(f.name, f.unit) for f in fields_in(message)] == [
        ("bytes sent", "bytes"), ("bytes received", "bytes"), ("lifetime", "s")]
    assert [f.name for f in fields_in("Received block blk_-16 of size 67108864 from /10.0.0.1")] == ["size"]
    assert [f.name for f in fields_in("request done code=500 elapsed=120ms")] == ["code", "elapsed"]
    assert _one(["request done code=500 elapsed=120ms"], "elapsed").iloc[0] == pytest.approx(0.12)


_OLD_BEFORE = re.compile(r"(?P<key>[A-Za-z_][\w\-]*)[ \t]+$")  # the word before a number, as first searched


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "Zb_", "x-y", "é", "_", "-", "9", " ", "\t", "5", "5ms", "2.5 KB", "(3 B)",
                                 "sent", "of", "took", "=", ": ", ",", ".", "size ", "00:03"]), max_size=14))
def test_the_word_before_a_number_is_read_as_a_search_of_the_text_before_it_reads_it(parts: list[str]) -> None:
    message = "".join(parts)
    reversed_message = message[::-1]
    for found in fields._UNITED.finditer(message):
        old = _OLD_BEFORE.search(message[:found.start()])
        assert fields._word_before(reversed_message, found.start()) == (old["key"] if old else None)


@pytest.mark.parametrize("gap", [",", " ", "="])
def test_field_discovery_is_linear_in_the_message_length(gap: str) -> None:
    message = "a" * 6000 + f"{gap}5ms" * 60  # a 6.3 KB line: searching back from each number took 38 s
    began = time.monotonic()
    for _ in range(3):
        fields_in(message)
        discover([message + " " + str(i) for i in range(3)])
    assert time.monotonic() - began < 2


def test_inspect_reads_long_words_before_numbers_in_well_under_a_second(tmp_path) -> None:
    from react_engine.logs.options import LoadOptions
    from react_engine.logs.summary import inspect

    path = tmp_path / "long.log"
    path.write_text("".join(f"2026-11-20T10:00:0{i} host app: INFO {chr(97 + i) * 6000}{',5ms' * 60}\n"
                            for i in range(3)))
    began = time.monotonic()
    report = inspect([str(path)], LoadOptions(use_cache=False))
    assert report.rows == 3 and time.monotonic() - began < 2


def test_identifiers_ports_and_dotted_ids_are_not_measures() -> None:
    assert fields_in("CMTS deleted Cable Modem 986b.3d0b.f6bb") == []
    assert fields_in("session pid=2211 port=22 opened") == []


def test_proxifier_bytes_sent_match_a_regex_pass() -> None:
    text = real_log("Proxifier").read_text(errors="replace").splitlines()
    truth = sum(int(n) for n in re.findall(r"(\d+) bytes (?:\([^)]*\) )?sent", "\n".join(text)))
    assert _one(text, "bytes sent").sum() == truth == 3_270_535


def test_openstack_time_matches_a_regex_pass() -> None:
    text = real_log("OpenStack").read_text(errors="replace").splitlines()
    truth = [float(n) for n in re.findall(r"\btime: ([\d.]+)", "\n".join(text))]
    got = _one(text, "time").dropna()
    assert len(got) == len(truth) == 1017
    assert got.mean() == pytest.approx(sum(truth) / len(truth))


def test_inspect_lists_the_numeric_fields_with_unit_and_rows() -> None:
    from react_engine.logs.summary import inspect

    path = real_log("Proxifier")
    text = path.read_text(errors="replace")
    fields = {f.name: f for f in inspect([str(path)]).fields}
    assert (fields["bytes sent"].unit, fields["bytes sent"].rows) == ("bytes", len(re.findall(r"bytes (?:\(.*?\) )?sent", text)))
    assert fields["lifetime"].rows == len(re.findall(r"lifetime \d+:\d\d", text))


def test_a_number_is_located_by_the_words_around_it_when_no_field_is_named_so() -> None:
    messages = ["Progress of TaskAttempt attempt_17_0020_m_0 is : 0.25", "Animating brightness: target=38, rate=0",
                "Progress of TaskAttempt attempt_17_0021_m_3 is : 0.75", "touch target=553 at 12",
                "Finished task 3.0 in stage 0.0 (TID 3). 2703 bytes result sent to driver",
                "earlyWake - complete - took 7 milliseconds"]
    progress = located("task attempt progress", messages)
    assert progress is not None and list(read(pd.Series(messages), progress).dropna()) == [0.25, 0.75]
    target = located("brightness target", messages)  # the word beside the field says which `target=` is meant
    assert target is not None and list(read(pd.Series(messages), target).dropna()) == [38]
    sent = located("bytes result sent driver", messages)
    assert sent is not None and sent.unit == "bytes" and list(read(pd.Series(messages), sent).dropna()) == [2703]
    woke = located("earlyWake time", messages)
    assert woke is not None and list(read(pd.Series(messages), woke).dropna()) == [pytest.approx(0.007)]
    assert located("request time", messages) is None  # no message says "request"
    broadcast = ["Started reading broadcast variable 9", "Reading broadcast variable 9 took 160 ms"]
    took = located("time reading variable", broadcast)  # a time: the number written with a time unit, not the id
    assert took is not None and list(read(pd.Series(broadcast), took).dropna()) == [pytest.approx(0.16)]


@given(st.lists(st.integers(0, 200), min_size=1, max_size=30, unique=True), st.integers(0, 200))
def test_the_distance_to_the_nearest_word_is_the_least_of_all(at: list[int], i: int) -> None:
    from react_engine.tools import located as module

    assert module._distance(sorted(at), i) == min(abs(w - i) for w in at)


def test_locating_a_number_is_linear_in_the_message_length() -> None:
    message = " ".join(f"request took {i}" for i in range(3000))  # 55 KB: measuring to every word took 15 s
    began = time.monotonic()
    found = located("request took", [message] * 3)
    assert found is not None and time.monotonic() - began < 5
