"""Pick a format for a file from a sample of its lines; for many files, once per family of file names."""

from __future__ import annotations

import re
from pathlib import PurePath

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.errors import InputError
from react_engine.logs.formats import BY_NAME, REGISTRY, Format
from react_engine.logs.matching import match_patterns

SAMPLE_LINES = 200
TRUST_GENERIC = 3
"""A family whose first files all fell back to `generic` (which has no check of its own) takes it from then on."""
_DIGITS = re.compile(r"\d+")
_COMPRESSED = re.compile(r"\.(gz|bz2|xz)$")


def sample(lines: pa.Array, size: int = SAMPLE_LINES) -> pa.Array:
    """Up to `size` non-blank lines: half from the start, half from the middle of the file; without lines that
    start with a space or tab (continuations of the entry above, which start no entry) unless all do."""
    half = size // 2
    middle = max(len(lines) // 2, half)
    picked = pa.concat_arrays([lines.slice(0, half), lines.slice(middle, half)])
    picked = picked.filter(pc.greater(pc.utf8_length(pc.utf8_trim_whitespace(picked)), 0))
    leading = pc.invert(pc.match_substring_regex(picked, r"^[ \t]"))
    return picked.filter(leading) if pc.any(leading).as_py() else picked


def match_share(fmt: Format, lines: pa.Array) -> float:
    """Share of `lines` that `fmt` recognises."""
    if not len(lines):
        return 0.0
    if fmt.quick is not None and not pc.any(pc.match_substring_regex(lines, fmt.quick)).as_py():
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
        if share > best_share and share >= fmt.detect_share and best.name not in fmt.yields_to:
            best, best_share = fmt, share
    return best


def by_name(name: str) -> Format:
    """The format called `name`, or an InputError listing the valid names."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise InputError(f"unknown format {name!r}; use one of: {', '.join(sorted(BY_NAME))}") from None


def family(name: str) -> str:
    """Files that are rotations or siblings of one log share a family: `app-2024-01-02.log.1.gz` -> `app-#-#-#.log.#`."""
    return _DIGITS.sub("#", _COMPRESSED.sub("", PurePath(name).name.lower()))


class Detector:
    """Detects formats file after file, fully only for the first file of a family of names.

    A later file of the family is checked with the family's format alone (one pass instead of one per
    format), and detected fully when that check fails. Detection costs tens of milliseconds per file,
    which adds up to minutes over thousands of small rotated or per-host files.
    """

    def __init__(self) -> None:
        self.known: dict[str, tuple[Format, int]] = {}

    def detect(self, name: str, lines: pa.Array) -> Format:
        """The format of `lines`, read from the file called `name`."""
        key = family(name)
        fmt, agreed = self.known.get(key, (None, 0))
        if fmt is not None:
            if fmt is BY_NAME["generic"]:
                if agreed >= TRUST_GENERIC:
                    return fmt
            elif match_share(fmt, sample(lines)) >= fmt.detect_share:
                return fmt
        found = detect(lines)
        self.known[key] = (found, agreed + 1 if found is fmt else 1)
        return found
