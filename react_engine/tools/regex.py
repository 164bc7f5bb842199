"""Linear-time regular expressions over string columns.

A pattern from the planner is untrusted: it is compiled with RE2 (no backtracking, so `(a+)+$` cannot hang)
and run through Arrow's compute kernels, which use RE2 too and work on the whole column at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import re2

from react_engine.errors import ToolError
from react_engine.logs.literal_text import literal_search
from react_engine.logs.text import Strings, arrow_strings, bool_mask, text_mask

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False
_OPEN, _CLOSE = "\ue000", "\ue001"  # private-use markers that delimit matches in `findall`
_MARKERS = f"[{_OPEN}{_CLOSE}]"


def check(pattern: str) -> int:
    """Validate `pattern` as RE2 syntax and return its number of capture groups; ToolError when unusable."""
    try:
        return re2.compile(pattern, _OPTIONS).groups
    except re2.error as exc:
        reason = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise ToolError(f"invalid regex {pattern!r}: {' '.join(reason.split())} "
                        "(RE2 syntax: no backreferences or lookaround)") from None


def literal(text: str) -> str:
    """A pattern that matches `text` literally."""
    return re2.escape(text)


def _test(pattern: str, ignore_case: bool) -> Callable[[Strings], Strings]:
    """An Arrow predicate: which strings contain a match of `pattern`."""
    check(pattern)

    def test(text: Strings) -> Strings:
        try:
            return pc.match_substring_regex(text, pattern, ignore_case=ignore_case)
        except pa.ArrowInvalid as exc:
            raise ToolError(f"invalid regex {pattern!r}: {' '.join(str(exc).split())}") from None

    return test


def matches(series: pd.Series, pattern: str, *, ignore_case: bool = False) -> np.ndarray:
    """Boolean mask of rows whose text contains a match of `pattern` (missing text never matches)."""
    return bool_mask(_test(pattern, ignore_case)(arrow_strings(series)))


def text_matches(frame: pd.DataFrame, pattern: str, *, ignore_case: bool = False) -> np.ndarray:
    """Boolean mask of rows whose entry, as written, contains a match of `pattern`."""
    test = _test(pattern, ignore_case)
    return text_mask(frame, test, literal_search(pattern, test, ignore_case), key=(pattern, ignore_case))


def findall(series: pd.Series, pattern: str) -> pd.Series:
    """Every non-empty match of `pattern`, indexed by the label of the row it came from (labels repeat).

    As in `str.extract`, the first capture group is the value when the pattern has one, else the whole match.
    Matches are marked in place with RE2's global replace and split out column-wise, so the cost stays linear.
    """
    group = 1 if check(pattern) else 0
    hit, found, labels = matches(series, pattern), arrow_strings(series), series.index
    if 2 * hit.sum() < len(hit):  # copying out the matching rows pays off only when they are few
        found, labels = pc.filter(found, pa.array(hit)), labels[hit]
    if pc.any(pc.match_substring_regex(found, _MARKERS)).as_py():  # text that already holds a marker
        found = pc.replace_substring_regex(found, _MARKERS, "")
    marked = pc.replace_substring_regex(found, pattern, f"{_OPEN}\\{group}{_CLOSE}")
    pieces = pc.list_slice(pc.split_pattern(marked, _OPEN), 1)
    owner = pc.list_parent_indices(pieces).to_numpy(zero_copy_only=False)
    values = pc.list_element(pc.split_pattern(pc.list_flatten(pieces), _CLOSE, max_splits=1), 0)
    out = pd.Series(values, index=labels[owner], dtype="str", name=series.name)
    return out[out.str.len() > 0]
