"""Which of the words no reader used are linked to nothing: not a field, a value, an event or a word of the log, not
a function word, not a day the time window holds, not a part of the log's name, and not described by quoted log text.
Those words are unread: the answer to the question is partial, and says so first."""

from __future__ import annotations

import functools
import re

from react_engine.logs.wordforms import split_words, stem
from react_engine.question.log_events import alike
from react_engine.question.query import Filter, TextFilter
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.lexicon import FUNCTION_WORDS, SIZE_NOUNS, TRANSFER_WORDS, WEEKDAYS
from react_engine.question.reading.nouns import asked_field
from react_engine.question.vocabulary import Vocabulary, singular


def unlinked(question: str, draft: Draft, literals: list[Filter], vocabulary: Vocabulary) -> list[str]:
    """The words `draft` ignored that nothing links (see the module); none when quoted log text names the lines
    (the other words describe them). A verb of moving data is a size's ("which ip sent the most bytes")."""
    if any(isinstance(f, TextFilter) and not f.regex for f in literals):
        return []
    written = {c.read_as.lower(): c.written for c in draft.corrections}
    sized = re.search(SIZE_NOUNS, question, re.I) is not None
    return [w for w in draft.ignored if not _linked(w, draft, vocabulary)
            and not (sized and w.lower() in TRANSFER_WORDS)
            and not (w.lower() in written and _linked(written[w.lower()], draft, vocabulary))]


def _linked(word: str, draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether `word` is a function word, a day of the window, part of the log's name, or a word of the log in any
    form: a part of a camelCase, snake_case or dotted word it writes ("wake" in WakeLock, "rdd" in rdd_42_3)."""
    lower = word.lower().strip("'.")
    if lower in FUNCTION_WORDS or lower.endswith("n't") or (lower in WEEKDAYS and draft.window is not None):
        return True
    if len(lower) >= 3 and any(lower in source for source in vocabulary.sources):
        return True
    parts, stems = _parts(vocabulary)
    return bool(vocabulary.stem_rows(lower)) or bool({lower, singular(lower)} & parts) or any(
        alike(stem(lower), s) for s in stems)


@functools.lru_cache(maxsize=8)
def _parts(vocabulary: Vocabulary) -> tuple[frozenset[str], frozenset[str]]:
    """The parts of the log's words (camelCase, snake_case and dotted words split), and their stems."""
    tokens = set(re.findall(r"[A-Za-z][\w.]*", "\n".join(vocabulary.events.messages)))  # as written: camelCase
    parts = frozenset(p for token in tokens for p in split_words(token) if len(p) > 2)
    return parts, frozenset(stem(p) for p in parts)


def value_unread(question: str, draft: Draft) -> list[str]:
    """"What is the src of X": `src` when the reading gives no value of it (no column or message field of that name
    is counted or ranked): a count or a listing of lines is no src."""
    m = asked_field(question)
    return [m.group(1)] if m is not None and draft.subject is None and m.group(1) not in draft.unread else []
