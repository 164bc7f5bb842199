"""Message templates: each message with its variable parts masked, then similar masks merged as Drain does.

`masked` is one vectorized regex over the messages, run when a question first needs their templates (see
`rows.row_patterns`), so a mask is the same whether a file was parsed whole or in blocks (on Dask). It masks, as `<*>`, every MAC, every
token that holds a digit and every path, then joins masked tokens in a row (a list of ids) into one: a line's mask
depends on that line alone.

`merge` then groups the distinct masks of a load the way Drain (He et al., ICWS 2017) groups lines: masks with the
same number of tokens and the same first two tokens (a token that is not a word counts as any) fall in one group,
and a mask joins the first template in its group whose tokens agree at no fewer than SIMILARITY of its positions;
the positions where they differ become `<*>`. Masks are taken largest first, so the result does not depend on the
order of the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

WILDCARD = "<*>"
SIMILARITY = 0.7
PREFIX_TOKENS = 2
_D = r"""\s=:,;()\[\]{}"'<>|"""  # characters that end a token
_T = f"[^{_D}]"  # a token character
_ENDS = "\"'()[]{}<>,:;"  # stripped from a token before it is read as a word
_HEX = "[0-9a-fA-F]"
_MASK = f"(?:{_HEX}{{2}}[:-]){{5}}{_HEX}{{2}}|{_T}*\\d{_T}*|/{_T}*"  # a MAC; a token that holds a digit; a path
_RUN = r"<\*>(?:[ ,]+<\*>)+"  # masked tokens in a row: one variable part (a list of ids)
_VARIABLE = f"(?:<\\*>|{_MASK})"  # a token masked, or a mask already written in the message
_MASKED_RUN = f"{_VARIABLE}(?:[ ,]+{_VARIABLE})*"


def masked(messages: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Each message with its variable tokens replaced by `<*>` (see the module docstring).

    One RE2 pass replaces each run of variable tokens: the same text as masking each token (`_MASK`) and then
    joining the masks in a row (`_RUN`), in about three quarters of the time of those two passes."""
    return pc.replace_substring_regex(messages, pattern=_MASKED_RUN, replacement=WILDCARD)


@dataclass(frozen=True)
class Merged:
    """The templates of some masks: `templates[group[i]]` is the template of the i-th mask."""

    templates: list[str]
    group: np.ndarray


def merge(masks: Sequence[str], counts: Sequence[int]) -> Merged:
    """Group distinct masks (with their row counts) into templates, Drain-like (see the module docstring)."""
    order = sorted(range(len(masks)), key=lambda i: (-counts[i], masks[i]))
    buckets: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    tokens: list[list[str]] = []
    group = np.zeros(len(masks), np.int64)
    for i in order:
        words = masks[i].split()
        bucket = buckets.setdefault((len(words), _prefix(words)), [])
        found = next((t for t in bucket if _similar(tokens[t], words)), None)
        if found is None:
            found = len(tokens)
            tokens.append(words)
            bucket.append(found)
        else:
            tokens[found] = [a if a == b else WILDCARD for a, b in zip(tokens[found], words, strict=True)]
        group[i] = found
    return Merged([" ".join(words) for words in tokens], group)


def _prefix(words: list[str]) -> tuple[str, ...]:
    return tuple(w if w.strip(_ENDS).isalpha() else WILDCARD for w in words[:PREFIX_TOKENS])


def _similar(template: list[str], words: list[str]) -> bool:
    if not words:
        return True
    same = sum(a == b for a, b in zip(template, words, strict=True))
    return same >= SIMILARITY * len(words)
