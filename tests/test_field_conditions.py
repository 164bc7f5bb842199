"""A statistic of the lines of one event ("the max port for 1.2.3.4 when failed none"), the field the question
names before the words of its searches, and numbers that stand on their own (not parts of an address or a time)."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from question_frames import ask, frame

from react_engine.logs.fields import pair_named, read
from react_engine.tools.located import located

SSH = [f"Failed none for invalid user {u} from 10.0.0.{h} port {p} ssh2"
       for u, h, p in [("0", 1, 51889), ("admin", 1, 40022), ("0", 2, 50001)]] + [
    f"Accepted password for root from 10.0.0.1 port {p} ssh2" for p in (49116, 52000)]


def _ports(messages: list[str], *words: str) -> pd.Series:
    return pd.Series([int(re.search(r"port (\d+)", m).group(1)) for m in messages  # type: ignore[union-attr]
                      if all(w in m for w in words)])


def test_when_joins_a_statistic_to_the_event_of_its_lines() -> None:
    result = ask("What is the max port for 10.0.0.1 when failed none?", frame(SSH))
    assert result.value == _ports(SSH, "10.0.0.1 ", "Failed none").max() and result.verified, result.answer
    least = ask("What is the min port for 10.0.0.1 when accepted password?", frame(SSH))
    assert least.value == _ports(SSH, "10.0.0.1 ", "Accepted password").min() and least.verified, least.answer


def test_when_asking_a_time_is_still_a_time() -> None:
    result = ask("when was the first failed none?", frame(SSH))
    assert frame(SSH)["timestamp"].iloc[0].isoformat() in result.answer and result.verified, result.answer


def test_the_field_named_wins_over_a_longer_one_the_searches_name() -> None:
    lines = [f"[instance: i-{i}] memory limit: {limit}.00 MB, free: {free}.00 MB"
             for i, limit, free in [(1, 96258, 95746), (2, 96258, 90000)]]
    result = ask("What is the sum free for i-1 when memory limit?", frame(lines))
    assert result.value == 95746 and "free" in result.answer and result.verified, result.answer  # in MB, as written


def test_a_statistic_that_names_no_field_is_no_number_near_its_words() -> None:
    result = ask("What is the max in failed none lines?", frame(SSH))
    assert not result.verified and result.value is None, result.answer


PARTS = st.lists(st.integers(0, 9999).map(lambda n: f"{n:04x}"), min_size=2, max_size=4)


@given(parts=PARTS, sep=st.sampled_from([":", "/"]))
def test_a_number_inside_an_address_or_a_pair_is_no_field(parts: list[str], sep: str) -> None:
    message = f"PCI: Using IRQ router PIIX/ICH [{sep.join(parts)}] at {':'.join(parts)}.0"
    assert located("ich", [message]) is None


@given(value=st.integers(0, 10**6), before=st.sampled_from(["port ", "port=", "port = ", "port: "]))
def test_a_number_standing_alone_beside_its_name_is_found(value: int, before: str) -> None:
    found = located("port", [f"Thunderbolt HPD packet for route 0x0 {before}{value} unplug"])
    assert found is not None and found.name == "port"


TORUS = ["26741629 torus sender z- retransmission error(s) (dcr 0x02f9) detected and corrected over 268 seconds",
         "33333333 torus sender z- retransmission error(s) (dcr 0x02f9) detected and corrected over 12 seconds",
         "44444444 torus receiver x+ input pipe error(s) (dcr 0x02ec) detected and corrected"]


def test_an_eight_digit_number_is_an_event_id_only_where_the_log_writes_them() -> None:
    result = ask("How many torus sender from 26741629?", frame(TORUS))
    assert result.value == sum("torus sender" in m and "26741629" in m for m in TORUS) and result.verified, \
        result.answer
    ids = ask("How many 82000500 events?", frame([f"<{n}> T3 time-out" for n in (82000500, 82000500, 82000200)]))
    assert ids.value == 2 and "event ID" in ids.answer, ids.answer


def test_a_value_the_event_reading_drops_is_never_dropped_silently() -> None:
    lines = [f"<82000500> Started Unicast Maintenance Ranging - No Response received - T3 time-out;CM-MAC={i}"
             for i in range(5)] + ["<73050400> ToD request sent - No Response received"]
    result = ask("How many unicast maintenance ranging 73050400?", frame(lines))  # the ID is on no ranging line
    assert not result.verified and "73050400" in result.answer.split(":")[0], result.answer


LOCKS = [f"acquire lock={lock}, flags=0x1, uid={uid}, pid={pid}"
         for lock, uid, pid in [(233570404, 10037, 2227), (166121161, 1001, 0), (189667585, 1000, 1702)]]


@pytest.mark.parametrize("func", ["min", "max"])
def test_an_id_the_question_names_is_read_from_its_pair_not_from_another_field(func: str) -> None:
    result = ask(f"What is the {func} pid for 0x1 when acquire lock?", frame(LOCKS))
    pids = pd.Series([int(re.search(r"pid=(\d+)", m).group(1)) for m in LOCKS])  # type: ignore[union-attr]
    assert result.value == getattr(pids, func)() and result.verified, result.answer


@given(key=st.sampled_from(["pid", "uid", "port", "session_id"]), values=st.lists(st.integers(0, 10**6), min_size=1,
                                                                                  max_size=5),
       between=st.sampled_from(["=", ": "]))
def test_a_pair_named_reads_each_lines_number(key: str, values: list[int], between: str) -> None:
    messages = [f"open lock=7 {key}{between}{v} done" for v in values]
    found = pair_named(key.replace("_", " "), messages)
    assert found is not None and list(read(pd.Series(messages), found)) == values
    assert pair_named("gizmo", messages) is None
