"""Word forms for matching a question's words with the logs': plurals, crude stems and split names (used by reading
and by the tools that find a field by its words)."""

from __future__ import annotations

import re

from react_engine.lexicon.word_endings import PLURAL_ES, SUFFIXES

_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def singular(word: str) -> str:
    """`errors` -> `error`, `addresses` -> `address`, `entries` -> `entry` (for matching only)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(PLURAL_ES):
        return word[:-2]
    if len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def stem(word: str) -> str:
    """A crude stem for matching word forms: `failures` -> `fail`, `expired` -> `expir`, `renewal` -> `renew`,
    `closed` and `close` -> `clos` (at least four letters are kept)."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def split_words(text: str) -> list[str]:
    """Lower-case words of `text`, camelCase, snake_case and dotted names split:
    `calculateCaloriesWithCache` -> calculate calories with cache, `NameSystem.delete` -> name system delete."""
    return [w.lower() for w in _PARTS.findall(text)]
