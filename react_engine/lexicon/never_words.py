"""The words that ask for the values of one event that never come up on the lines of another ("IP addresses that
failed but never succeeded", "users who never logged in"): the cue, then the other event's words."""

from __future__ import annotations

NEVER_CUE = (r"(?:(?:but|and|yet|(?:that|which|who)(?:\s+have|\s+had)?)\s+)?never"
             r"(?:\s+(?:had|got|were|was|did|saw))?")
"""The cue before the other event's words ("which users never logged in": every line holding one is the first
event's)."""

NEVER_KEYS: tuple[tuple[str, str, str, str], ...] = (
    ("task", r"\btasks?\s*\(\s*tids?\s*\)|\btids?\b", r"\bTID (\d+)\b", "tasks (TIDs)"),
    ("session", r"\bsessions?(?:[- ]?ids?)?\b", r"\b[Ss]ession:? (0x[0-9a-fA-F]+)\b", "sessions"),
)
"""The values only a question of another event counts by their id (kind, words naming them, the pattern whose
group is the id, how the answer names them): elsewhere "how many sessions" counts lines."""
