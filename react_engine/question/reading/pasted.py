"""A line pasted as context before the question proper: "I copied 'Failed password for invalid user PlcmSpIp from
103.99.0.122 port 51966 ssh2', how many failed password attempts came from 103.99.0.122 in total?" asks of every
failed password from that address, not of the one line quoted. The quote is the subject only when the question
proper points back at it ("I see '/10.10.34.40:39952' in the log, what happened with it?") or says nothing of its
own ("I keep seeing 'Got exception while serving', how many are there?"), and a quote before a noun of lines
names the lines asked of ("the 'PM response took N ms' lines, what is their average time?")."""

from __future__ import annotations

import re

from react_engine.question.reading.question import Question, lead_in

_QUOTED = re.compile(r"(?:(?<!\w)'[^']{3,}'(?!\w)|\"[^\"]{3,}\"|`[^`]{3,}`)"
                     r"(?!\s+(?:lines?|messages?|entries|entry|events?|errors?|warnings?)\b)")
_BACK = re.compile(r"\b(?:it|its|they|them|their)\b|\b(?:this|that|these|those|the same|such)\s+(?:one|ones|line|lines|value|"
                   r"values|address|id|message|messages|entry|entries)\b|\b(?:this|that)\s*\?", re.I)


def without_pasted(text: str) -> str:
    """`text` with the quotes of its lead-in blanked (spaces of their length) when the question proper names its
    own subject: it has words of its own ("how many are there?" has none) and none of them points back."""
    start = lead_in(text)
    if start == 0 or _BACK.search(text[start:]) or not Question(text[start:]).leftover():
        return text
    return _QUOTED.sub(lambda m: " " * len(m.group(0)), text[:start]) + text[start:]


_PLACE = re.compile(r"\s*(?:in|on|at|for|from|within|during|among|across|of|about|regarding|under|inside|only)\b", re.I)
_WORD = re.compile(r"\w[\w'.:-]*\w|\w")


def context_words(text: str) -> set[str]:
    """The words (lower case) only a lead-in that tells what happened writes ("we had an outage around 3pm, how
    many ..."): context, which no reading owes an answer to. A lead-in that starts with a preposition ("in the
    staging cluster, how many ...") names where to look, and has none."""
    start = lead_in(text)
    if start == 0 or _PLACE.match(text):
        return set()
    asked = {w.lower() for w in _WORD.findall(text[start:])}
    return {w.lower() for w in _WORD.findall(text[:start])} - asked


_POINTER = re.compile(r"\b(?:with|to|of|about|for|on)\s+(it|that|this)\W*$", re.I)
_VALUE = re.compile(r"[\w.:@/$-]*\d[\w.:@/$-]*")


def with_antecedent(text: str) -> str:
    """`text` with an "it" that ends the question proper ("I see /10.10.34.40:39952 in the log, what happened with
    it?") read as the one value (a token holding a digit) its lead-in writes; as it is otherwise."""
    start = lead_in(text)
    pointer = _POINTER.search(text, start) if start else None
    values = {v.strip(".:-") for v in _VALUE.findall(text[:start])} if pointer else set()
    if pointer is None or len(values) != 1:
        return text
    value = values.pop()  # moved from the lead-in to the question proper
    lead = re.sub(rf"(?<![\w.:@/$-]){re.escape(value)}", " " * len(value), text[:start])
    return lead + text[start:pointer.start(1)] + value + text[pointer.end(1):]
