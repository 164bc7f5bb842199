"""Examples a question gives in brackets of what it asks about: "which 3 programs (crond, ntpd, ...) wrote the most
lines?", "top hosts (e.g. dn228)". They show what the asker means by the noun, and name no filter: a ranking of
programs is of every program, not of those two."""

from __future__ import annotations

import re

_EXAMPLES = re.compile(r"\(\s*(?:e\.?\s?g\.?|for example|for instance|such as)[\s,:][^()]*\)"
                       r"|\([^()]*,\s*(?:\.\.\.+|…|etc\.?)\s*\)", re.I)


def without_examples(text: str) -> str:
    """`text` with each bracket of examples blanked (spaces of its length, so positions in the text stay)."""
    return _EXAMPLES.sub(lambda m: " " * len(m.group(0)), text)
