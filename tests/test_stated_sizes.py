"""A statistic of a size is stated in the unit the matched lines write it in when they all write one, else in bytes
with a readable scale; either way the number is a computed one and the answer is verified."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.answer.check import verify
from react_engine.lexicon.measure_units import SIZE_UNITS
from react_engine.logs.fields import discover, written_units
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from tests.real_logs import real_log

OPTIONS = LoadOptions(year=2026)
STATS = {"sum": "sum", "min": "min", "max": "max", "average": "mean"}
UNITS = ("KB", "MB", "GB")


def _ask(question: str, lines: list[str]) -> tuple[object, str, bool]:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "mem.log"
        log.write_text("".join(f"2026-11-20T10:{i // 60:02d}:{i % 60:02d} host1 app: INFO {line}\n"
                               for i, line in enumerate(lines)))
        result = Engine(RulesPlanner()).ask(question, [str(log)], load_options=OPTIONS)
    return result.value, result.answer, result.verified


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from([*UNITS, "mb", "bytes", None])), min_size=1,
                max_size=20))
def test_the_units_a_field_is_written_in_are_those_of_the_lines_holding_it(lines: list[tuple[int, str | None]]) -> None:
    messages = pd.Series([f"pool free: {v} {u}" if u else f"idle {v}" for v, u in lines])
    field = next((f for f in discover(messages) if f.name == "free"), None)
    written = {u for _, u in lines if u}
    assert (field is None) == (not written)
    if field is not None:
        assert written_units(messages, field) == written


def _truth(values: list[int], stat: str) -> float:
    return float(getattr(pd.Series(values, dtype=float), STATS[stat])())


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(1, 200_000), min_size=2, max_size=12), st.sampled_from(UNITS),
       st.sampled_from(list(STATS)))
def test_a_size_all_lines_write_in_one_unit_is_stated_in_it(values: list[int], unit: str, stat: str) -> None:
    value, answer, verified = _ask(f"What is the {stat} of free?", [f"pool free: {v}.00 {unit}" for v in values])
    assert verified and value == pytest.approx(_truth(values, stat), rel=1e-5)  # six significant digits, as `plain` keeps
    assert re.search(rf"\b{unit}\b", answer) and "bytes" not in answer, answer


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 200_000), st.sampled_from(UNITS)), min_size=2, max_size=12)
       .filter(lambda written: len({u for _, u in written}) > 1), st.sampled_from(list(STATS)))
def test_a_size_written_in_several_units_is_stated_in_bytes_with_a_readable_scale(
        written: list[tuple[int, str]], stat: str) -> None:
    value, answer, verified = _ask(f"What is the {stat} of free?", [f"pool free: {v} {u}" for v, u in written])
    assert verified and value == pytest.approx(_truth([v * SIZE_UNITS[u.lower()] for v, u in written], stat),
                                               rel=1e-5)
    assert re.search(r"\d bytes \([\d.]+ (?:KiB|MiB|GiB|TiB)\)", answer), answer


def test_a_readable_scale_is_grounded_in_the_bytes_computed_to_the_step_it_writes() -> None:
    computed = [{"sum": 1_234_567_890, "rows": 3, "unit": "bytes"}]
    for answer in ("It is 1,234,567,890 bytes (1.15 GiB).", "It is 1,234,567,890 bytes (1177.4 MiB)."):
        assert verify(answer, 1_234_567_890, computed, "sum of free?").verified, answer
    for answer in ("It is 1,234,567,890 bytes (1.25 GiB).", "It is 1,234,567,890 bytes (1.2 TiB)."):
        assert not verify(answer, 1_234_567_890, computed, "sum of free?").verified, answer
    assert verify("It is 95,746 MB.", 95746, [{"mean": 95746, "rows": 2, "unit": "MB"}], "average free?").verified


def test_the_sum_of_openstack_free_memory_is_stated_in_the_mb_its_lines_write() -> None:
    log = real_log("OpenStack")
    free = pd.Series(log.read_text().splitlines()).str.extract(r"free: ([\d.]+) MB")[0].dropna().astype(float)
    result = Engine(RulesPlanner()).ask("What is the sum of free?", [str(log)])
    assert len(free) > 1 and result.verified and result.value == free.sum()
    assert f"{int(free.sum()):,} MB over {len(free)} lines" in result.answer


@settings(max_examples=6, deadline=None)
@given(st.lists(st.integers(50_000, 120_000), min_size=1, max_size=8), st.integers(60_000, 110_000))
def test_a_threshold_in_the_written_unit_still_keeps_the_lines_over_it(values: list[int], over: int) -> None:
    value, _, verified = _ask(f"how many lines where free > {over} MB", [f"pool free: {v}.00 MB" for v in values])
    assert verified and value == sum(v > over for v in values)


@settings(max_examples=6, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5_000), st.booleans()), min_size=2, max_size=10)
       .filter(lambda rows: len({on for _, on in rows}) == 2), st.sampled_from(["MB", "mixed"]))
def test_a_comparison_of_sizes_is_in_the_unit_both_sides_write(rows: list[tuple[int, bool]], written: str) -> None:
    units = ["MB" if written == "MB" or on else "KB" for _, on in rows]
    value, answer, verified = _ask("average free for alpha vs beta", [
        f"pool {'alpha' if on else 'beta'} free: {v}.00 {u}" for (v, on), u in zip(rows, units, strict=True)])
    sides = [[v * SIZE_UNITS[u.lower()] / (SIZE_UNITS["mb"] if written == "MB" else 1)
              for (v, on), u in zip(rows, units, strict=True) if on is alpha] for alpha in (True, False)]
    assert verified and value == [pytest.approx(sum(s) / len(s), rel=1e-5) for s in sides], answer
    assert (" MB " in answer) == (written == "MB") and ("bytes (" in answer) != (written == "MB"), answer
