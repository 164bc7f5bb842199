"""Pick a format for a file from a sample of its lines."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.errors import InputError
from react_engine.logs.formats import BY_NAME, REGISTRY, Format
from react_engine.logs.parse import match_patterns

SAMPLE_LINES = 200


def sample(lines: pa.Array, size: int = SAMPLE_LINES) -> pa.Array:
    """Up to `size` non-blank lines: half from the start, half from the middle of the file."""
    half = size // 2
    middle = max(len(lines) // 2, half)
    picked = pa.concat_arrays([lines.slice(0, half), lines.slice(middle, half)])
    return picked.filter(pc.greater(pc.utf8_length(pc.utf8_trim_whitespace(picked)), 0))


def match_share(fmt: Format, lines: pa.Array) -> float:
    """Share of `lines` that `fmt` recognises."""
    if not len(lines):
        return 0.0
    if fmt.reader is not None:
        matched = fmt.reader(lines)[1].to_numpy(zero_copy_only=False)
    else:
        matched = match_patterns(fmt.detect_patterns, lines)[1]
    return float(np.mean(matched))


def detect(lines: pa.Array) -> Format:
    """The best-matching format for these lines; `generic` when nothing fits well enough."""
    picked = sample(lines)
    fallback = BY_NAME["generic"]
    best, best_share = fallback, 0.0
    for fmt in REGISTRY:
        if fmt is fallback:
            continue
        share = match_share(fmt, picked)
        if share > best_share and share >= fmt.detect_share:
            best, best_share = fmt, share
    return best


def by_name(name: str) -> Format:
    """The format called `name`, or an InputError listing the valid names."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise InputError(f"unknown format {name!r}; use one of: {', '.join(sorted(BY_NAME))}") from None
