"""A field named with its value, as the log writes the pair: "in src 10.250.14.224" (`src: /10.250.14.224:50010`),
"stage 4.0" (`in stage 4.0 (TID 79)`), "port 22" (`port 22 ssh2`), "pid=1234". The pair becomes a search for the
field's word followed by that value, when the sampled lines write it so; the value alone may stand in other fields of
the same line, which the pair tells apart."""

from __future__ import annotations

import re

from react_engine.lexicon.entity_words import TARGETS
from react_engine.lexicon.known_words import NOT_FIELDS, TIME_WORDS
from react_engine.lexicon.stop_words import FILLER, FILLER_NOUNS, NUMBER_LEADS, VALUE_QUALIFIERS
from react_engine.lexicon.time_units import MONTH_ABBREVIATIONS, WEEKDAYS
from react_engine.question.interpretation import Term
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.question import Question
from react_engine.question.vocabulary import Vocabulary, singular

_PAIR = re.compile(r"\b([A-Za-z][\w-]*)(?:[ \t]*[:=#][ \t]*|[ \t]+)(/?[\w./:@-]*\d[\w./:@-]*?)(?=[?!,;)]|[.:]?(?:\s|$))")


def pair_pattern(word: str, value: str) -> str:
    """An RE2 pattern for `value` written after the field's `word` (any case, with `: /`, `=` or spaces between)."""
    return (rf"(?i)(?:^|[^\w.]){re.escape(word)}[ \t]*[:=#]?[ \t]*/?{re.escape(value.lstrip('/'))}"
            r"(?:$|[^\w.]|\.(?:$|[^0-9]))")


def read_field_values(q: Question, draft: Draft, columns: list[str], vocabulary: Vocabulary) -> None:
    """Search for each field-and-value pair the question writes as the sampled lines do (see the module); a word
    naming a column of the rows ("pid 2227", "host web01") is that column's, read elsewhere."""
    if not vocabulary.sampled:
        return
    for m in list(_PAIR.finditer(q.text)):
        word, value = m.group(1), m.group(2)
        if any(q.used[m.start():m.end()]) or _not_a_field(word) or _names_column(word, columns):
            continue
        start, word = _led(q.text, m, vocabulary)
        pattern = pair_pattern(word, value)
        rows = int(vocabulary.events.lines(pattern.removeprefix("(?i)")).sum())
        if not rows:
            continue
        draft.search(pattern, True, f"with {word} {value}")
        draft.terms.append(Term(word=f"{word} {value}", column="message", value=value,
                                rows=rows if vocabulary.sampled == vocabulary.rows else None))
        q.consume(start, m.end())


def _led(text: str, m: re.Match[str], vocabulary: Vocabulary) -> tuple[int, str]:
    """Where the pair `m` starts and its field's words: with the question's word before it when the lines write
    that word before the pair too ("for id 1": "Connection broken for id 1, my id = 3", where "id 1" alone also
    finds "my id = 1")."""
    before = re.search(r"([A-Za-z]+)[ \t]+$", text[:m.start()])
    if before is not None:
        led = f"{before.group(1)} {m.group(1)}"
        if vocabulary.events.lines(pair_pattern(led, m.group(2)).removeprefix("(?i)")).any():
            return before.start(1), led
    return m.start(), m.group(1)


def _not_a_field(word: str) -> bool:
    """Words a number after them belongs to otherwise: filler, measures, times, days and months; a filler noun or a
    word saying a value is an identifier ("for id 1", "job 5") names a field when the lines write it so."""
    lower = word.lower()
    if lower in FILLER_NOUNS | VALUE_QUALIFIERS:
        return False
    return lower in FILLER or lower in NOT_FIELDS or lower in TIME_WORDS or lower in WEEKDAYS or \
        lower.startswith(MONTH_ABBREVIATIONS) or lower in NUMBER_LEADS


def _names_column(word: str, columns: list[str]) -> bool:
    """Whether `word` names a column of the rows, by its name or as an entity word of that column ("process")."""
    lower = singular(word.lower())
    return lower in {c.lower() for c in columns} or any(
        kind in columns and re.fullmatch(p, word, re.I) for kind, p in TARGETS)
