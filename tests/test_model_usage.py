"""ModelUsage sums what servers report across the requests of a turn; a field no server reported stays None."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from react_engine.contract.planner import ModelUsage

counts = st.one_of(st.none(), st.integers(0, 10**6))
durations = st.one_of(st.none(), st.floats(0, 1e6, allow_nan=False))
usages = st.builds(ModelUsage, requests=st.integers(0, 5), prompt_tokens=counts, completion_tokens=counts,
                   load_ms=durations, prompt_ms=durations, eval_ms=durations, total_ms=durations)  # fmt: skip


@given(usages, usages)
def test_a_sum_adds_reported_fields_and_keeps_unreported_ones_none(a: ModelUsage, b: ModelUsage) -> None:
    total = a + b
    for name in ModelUsage.model_fields:
        x, y, z = getattr(a, name), getattr(b, name), getattr(total, name)
        if x is None and y is None:
            assert z is None
        else:
            assert z == (x or 0) + (y or 0)


@given(usages)
def test_nothing_reported_is_the_identity(a: ModelUsage) -> None:
    assert a + ModelUsage() == a


def test_prompt_tokens_per_request() -> None:
    assert ModelUsage(requests=2, prompt_tokens=900).prompt_tokens_per_request == 450
    assert ModelUsage(requests=0, prompt_tokens=None).prompt_tokens_per_request is None
