"""Severity words ("errors", "warnings or worse", "at least critical"): one level filter when the logs carry
levels, else a search for the words."""

from __future__ import annotations

import re
from collections.abc import Collection

from react_engine.lexicon.severity_terms import AT_LEAST, LEVEL_WORDS, SEVERITY_WORDS, STEMS
from react_engine.logs.severity import RANK, from_pri, normalize
from react_engine.question.interpretation import Correction
from react_engine.question.query import LevelFilter
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.question import Question
from react_engine.question.reading.shape import LINE_WORDS
from react_engine.question.spelling import replaced
from react_engine.question.vocabulary import Vocabulary

# quoted text or an upper-case name right before a severity word: the word may name those lines
_NAME_BEFORE = r"[\"'”`]\s*$|\b[A-Z][A-Z0-9_]{4,}\s*$"

Hit = tuple[int, int, str]  # where a severity word starts and ends, and its level
# a word of 4 letters or more right before a noun of lines ("sever lines"): an adjective, maybe a level cut short
_BEFORE_LINES = re.compile(r"(?<![\w.'/@:-])([A-Za-z]{4,})(?=\s+" + LINE_WORDS + r"\b)", re.I)


def cut_levels(text: str, vocabulary: Vocabulary, known: Collection[str]) -> tuple[str, list[Correction]]:
    """`text` with a word before a noun of lines that starts a level the rows write, and that the rows never write
    as a word of its own, read as that level ("sever lines" is `SEVERE`, though "severed" shares its stem); severity
    words and the rules' lexicon (`known`, lower case) are kept."""
    levels = [w for w in vocabulary.values.get("level_raw", {}) if w.isalpha()]
    found = []
    for m in _BEFORE_LINES.finditer(text):
        word = m.group(1).lower()
        cut = [w for w in levels if w.lower().startswith(word) and w.lower() != word]
        if len(cut) == 1 and word not in known and not re.fullmatch(LEVEL_WORDS, word) and \
                not vocabulary.tokens.get(word):
            found.append((m, cut[0]))
    return replaced(text, found)


def read_severity(q: Question, draft: Draft, uses_severity: bool, vocabulary: Vocabulary) -> None:
    """Severity words, as one level filter when the logs carry levels (verbose only as the rows write it), else as
    a search for the words."""
    written = {v.lower(): v for v in vocabulary.values.get("level_raw", {})}
    minimum, hits = _hits(q, written, uses_severity)
    hits = _levels_not_names(hits, q.text, vocabulary)
    levels = _levels(hits, q.text)
    if not levels and minimum is None:
        return
    # "'Failed to open package' errors", "CBS_E_INVALID_PACKAGE errors": the level word may name those lines
    draft.level_noun = any(re.search(_NAME_BEFORE, q.text[:start]) for start, _, _ in hits)
    if not uses_severity:
        stems = [STEMS.get(w, w.lower()) for w in levels + ([minimum] if minimum else [])]
        draft.search("|".join(stems), len(stems) > 1,
                     f'containing {" or ".join(stems)} (these logs record no severities)')
        return
    as_written = any(q.text[start:end] in written.values() for start, end, _ in hits)
    level = _level_filter(levels, minimum, written, vocabulary, as_written)
    if vocabulary.inferred_levels:  # some severities no line wrote: the format's rule inferred them
        level = level.model_copy(update={"words": f"{level.words}, inferred by the format's rule where no level is "
                                                  f"written: see the severity_rule column"})
    draft.filters.append(level)


def _hits(q: Question, written: dict[str, str], uses_severity: bool) -> tuple[str | None, list[Hit]]:
    """The level an "at least"/"or worse" phrase names, and every severity word, in the question's order. In logs
    that record no severities such a phrase names no minimum: its other words are left to the other readers ("the
    min error for X" asks a statistic), or unread."""
    minimum, hits = None, []
    for pattern, level in SEVERITY_WORDS:
        if level == "verbose" and not {"verbose", "v"} & written.keys():
            continue  # a level these rows never write is a word of the question
        if uses_severity and q.take(AT_LEAST.format(w=pattern)):
            minimum = minimum or level.lower()
        hits += [(m.start(), m.end(), level) for m in q.take(pattern)]
    return minimum, sorted(hits + _letters(q, written))


def _letters(q: Question, written: dict[str, str]) -> list[Hit]:
    """A level letter as the rows write it, in capitals before a noun of lines ("E lines", "the W entries")."""
    return [(m.start(), m.end(), level) for raw in written.values()
            if len(raw) == 1 and raw.isupper() and (level := normalize(raw)) is not None
            for m in q.take(rf"\b{raw}\b(?=\s+(?:lines?|entries|messages?|logs?)\b)", 0)]


def _levels_not_names(hits: list[Hit], text: str, vocabulary: Vocabulary) -> list[Hit]:
    """Less the words after a name in a log that writes no such level ("CBS_E_INVALID_PACKAGE errors" where no
    line is at error): the word names the lines, not a level."""
    logged = {normalize(w) for w in vocabulary.values.get("level_raw", {})}
    return [h for h in hits if not (logged and normalize(h[2]) not in logged and re.search(_NAME_BEFORE, text[:h[0]]))]


def _levels(hits: list[Hit], text: str) -> list[str]:
    """The levels named; in "fatal errors" the level is the adjective and "errors" only the noun."""
    return list(dict.fromkeys(level for i, (start, _, level) in enumerate(hits) if not (
        level == "error" and i and not text[hits[i - 1][1]:start].strip())))


def _level_filter(levels: list[str], minimum: str | None, written: dict[str, str],
                  vocabulary: Vocabulary, as_written: bool) -> LevelFilter:
    """The level filter of the levels named. "errors" are error or worse, as `inspect` counts them (the critical
    and fatal lines too), unless the question writes the level as the log does ("ERROR lines": that level)."""
    levels = [written.get("verbose", written.get("v", level)) if level == "verbose" else level for level in levels]
    worse = _worse_than_error(vocabulary)
    if levels == ["error"] and minimum is None and worse and not as_written:  # as written: a level the log writes
        return LevelFilter(min_level="error", words=f"with severity error or worse ({worse} included)")
    words = " or ".join(levels)
    if minimum:
        words = " or ".join(filter(None, [words, f"{minimum} or worse"]))
    return LevelFilter(levels=tuple(levels), min_level=minimum, words=f"with severity {words}")


def _worse_than_error(vocabulary: Vocabulary) -> str:
    """The levels worse than error the rows write ("critical, fatal"); "" when they write none."""
    written = {_level_of(w) for w in vocabulary.values.get("level_raw", {})}
    worse = {level for level in written if level is not None and RANK[level] < RANK["error"]}
    return ", ".join(sorted(worse, key=RANK.__getitem__))


def _level_of(written: str) -> str | None:
    """The canonical level a written level names ("FATAL", "crit", a syslog "<130>")."""
    pri = re.fullmatch(r"<(\d{1,3})>", written)
    return from_pri(int(pri.group(1))) if pri else normalize(written)
