"""Everything that becomes a text search or a level, status, method or event-ID filter: HTTP statuses, methods,
event IDs, key phrases, severities, upper-case names and free text ("mentioning X", "for user Y")."""

from __future__ import annotations

import re

from react_engine.lexicon.entity_words import TARGETS
from react_engine.lexicon.event_phrases import FREE_TEXT, HTTP_REASONS, METHODS, STATUS_CLASSES
from react_engine.lexicon.severity_terms import SEVERITY_WORDS
from react_engine.lexicon.stop_words import FILLER
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.literals import in_sample, note_unwritten
from react_engine.question.reading.phrases import read_phrases
from react_engine.question.reading.question import Question, lead_in
from react_engine.question.reading.severity_words import read_severity
from react_engine.question.vocabulary import Vocabulary
from react_engine.tools.regex import literal

FORMAT_NOUNS = ("package",)  # columns of one format's own whose name, as a noun, names every row


def read_texts(q: Question, draft: Draft, columns: list[str], uses_severity: bool, vocabulary: Vocabulary) -> None:
    """Everything that becomes a text search or a level, status or method filter."""
    _status(q, draft, columns)
    _actions(q, draft, vocabulary)
    _column_nouns(q, columns)
    for m in q.take(rf"\b({METHODS})\b", 0):
        draft.keep_or_search(columns, "method", m.group(1), f"with method {m.group(1)}", f'"{m.group(1)} ')
    for m in q.take(r"\b(\d{8})\b", accept=lambda _: _writes_event_ids(columns, vocabulary)):
        draft.keep_or_search(columns, "event_id", m.group(1), f"with event ID {m.group(1)}", f"<{m.group(1)}>")
    read_phrases(q, draft, vocabulary)
    read_severity(q, draft, uses_severity, vocabulary)
    for m in q.take(r"\b([A-Z][A-Z0-9_]{4,})\b", 0):  # a mnemonic or other upper-case name, as written
        draft.search(m.group(1), False, f'mentioning "{m.group(1)}"')
        if in_sample(m.group(1), vocabulary):
            draft.grounding.named.append(re.escape(m.group(1)))  # to check it meets the question's other words
    start = lead_in(q.text)  # "Users say VMs are slow. How many ...": "say" there is not a search
    for m in q.take(FREE_TEXT.pattern, accept=lambda m: m.start() >= start):
        word = m.group(1)
        if len(word) <= 3 and word.isalnum():  # "mention RM": the word, not every RMContainerAllocator
            draft.search(rf"\b{literal(word)}\b", True, f'containing the word "{word}"', word.isupper())
        else:
            draft.search(word, False, f'containing "{word}"')
        note_unwritten(word, draft, vocabulary)
    for m in q.take(r"\b(?:for|as)\s+the\s+([A-Za-z_][\w.-]*)\s+(?:user|account)\b"
                    r"|\b(?:for|as)\s+(?:user\s+|account\s+)?([A-Za-z_][\w.-]*)(?!\s+(?:user|account)\b)",
                    accept=lambda m: _names_something(m.group(1) or m.group(2))):
        name = m.group(1) or m.group(2)  # as a whole name: the user "backup" is not in "backup.sh"
        draft.search(rf"(?:^|[^\w.-]){literal(name)}(?:$|[^\w.-])", True, f'mentioning "{name}"')


def _writes_event_ids(columns: list[str], vocabulary: Vocabulary) -> bool:
    """Whether the logs write event IDs (a column of them, or `<82000500>` in the sampled lines): elsewhere an
    eight-digit number is a value like any other."""
    return "event_id" in columns or vocabulary.together([r"<\d{8}>"])[0] > 0


def _status(q: Question, draft: Draft, columns: list[str]) -> None:
    """HTTP status classes and codes (`5xx`, `server errors`, `404s`, `status 500`), filtered on the status column
    or, without one, on the status the lines state (`" 404 ` after a request, `status: 404`, `status=404`); with a
    status column, a reason phrase ("unauthorized", "not found") names its code."""
    _status_classes(q, draft)
    for m in q.take(r"\b(?:status(?: code)?\s+|http\s+)?([1-5]\d\d)(?:s\b|\s+(?:errors?|responses?|codes?|status)\b|"
                    r"(?=\)?\s*$|\)?\s*\?))|\bstatus(?: code)?\s+([1-5]\d\d)\b"
                    r"|\b(?:returned|returning|return|came back with|come back with|got|answered with|with)\s+"
                    r"(?:an?\s+)?(?:http\s+)?(?:status\s+)?([1-5]\d\d)\b"):
        code = m.group(1) or m.group(2) or m.group(3)
        draft.keep("status", int(code), f"with status {code}")
    if "status" in columns:  # else "unauthorized" names a log's own event (a CMTS "BPI unauthorized")
        _reasons(q, draft)


def _status_classes(q: Question, draft: Draft) -> None:
    """HTTP status classes (`5xx`, `server errors`): the status column's codes of that class."""
    for m in q.take(r"\b([1-5])xx(?:\s+(?:errors?|responses?|status(?:es)?|codes?))?\b"
                    r"|\b(server|client)\s+errors?\b"):
        digit = m.group(1) or ("5" if m.group(2).lower() == "server" else "4")
        draft.keep("status", f"^{digit}[0-9][0-9]$", f"with an HTTP {STATUS_CLASSES[digit]} status", "regex")


def _reasons(q: Question, draft: Draft) -> None:
    """HTTP reason phrases ("unauthorized", "not found"): their code, unless the question names a status."""
    for m in q.take(r"\b(" + "|".join(HTTP_REASONS) + r")\b"):
        code = next(c for p, c in HTTP_REASONS.items() if re.fullmatch(p, m.group(1), re.I))
        if not any(getattr(f, "field", None) == "status" for f in draft.filters):  # "unauthorised requests (401)"
            draft.keep("status", code, f"with HTTP status {m.group(1).lower()}")  # a number the question lacks


def _actions(q: Question, draft: Draft, vocabulary: Vocabulary) -> None:
    """An action the rows record in their own column (dpkg's `install`, `upgrade`, `remove`, `status`; apt's
    `Install`), named in any form ("installs", "removed", "purging"): a filter on that column, not a search."""
    for value in vocabulary.values.get("action", {}):
        if not re.fullmatch(r"[A-Za-z][a-z-]{2,}", value):
            continue
        stem = value[:-1] if value.endswith("e") else value
        if found := q.take(rf"\b{re.escape(stem.lower())}(?:e|es|ed|ing|s|d)?\b"):
            draft.keep("action", value, f"with action {value}" if found[0].group(0).lower() == value.lower()
                       else f"with action {value} ({found[0].group(0)})")


def _column_nouns(q: Question, columns: list[str]) -> None:
    """A noun naming a column of the format's own that every row fills ("the first package installed" on dpkg's
    `package`): it names the rows, so it is no search (its words become consumed)."""
    for column in columns:
        if column in FORMAT_NOUNS:
            q.take(rf"\b{column}s?\b")


def _names_something(word: str) -> bool:
    """A word after "for"/"as" that is a name (a user, a service) rather than a word of the question."""
    return word.lower() not in FILLER and not any(re.fullmatch(p, word, re.I) for _, p in TARGETS) and not any(
        re.fullmatch(p, word, re.I) for p, _ in SEVERITY_WORDS)
