"""The words that ask for the values of one event that never come up on the lines of another ("IP addresses that
failed but never succeeded", "users who never logged in"): the cue, then the other event's words."""

from __future__ import annotations

NEVER_CUE = r"(?:but|and|yet|(?:that|which|who)(?:\s+have|\s+had)?)\s+never(?:\s+(?:had|got|were|was|did|saw))?"
"""The cue before the other event's words."""
