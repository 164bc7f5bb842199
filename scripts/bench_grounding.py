"""Time the answer checks on hostile sizes: number extraction over long text and reply parsing of deep nesting.

Run: python scripts/bench_grounding.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

from react_engine.answer.check import numbers_in
from react_engine.contract.actions import parse_reply
from react_engine.errors import ReplyError


def _seconds(fn: Callable[[str], object], text: str) -> float:
    began = time.perf_counter()
    try:
        fn(text)
    except ReplyError:
        pass
    return time.perf_counter() - began


def main() -> None:
    for label, text in [("letters", "a"), ("dotted words", "a."), ("digits and commas", "1,"), ("mixed", "a1 ")]:
        for size in (16_000, 100_000, 1_000_000):
            body = text * (size // len(text))
            print(f"numbers_in {label:<18} {size:>9,} chars: {_seconds(numbers_in, body) * 1000:8.1f} ms")
    for depth in (1_000, 200_000):
        print(f"parse_reply {depth:>9,} open braces:       {_seconds(parse_reply, '{' * depth) * 1000:8.1f} ms")
    answer = "There were 1,234 errors on MAWED07T01. " * 1_500
    print(f"numbers_in a 60 KB answer:                 {_seconds(numbers_in, answer) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
