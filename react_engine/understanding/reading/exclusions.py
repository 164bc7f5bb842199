"""Values a question leaves out ("other than INFO", "components other than dfs.FSNamesystem", "which label (other
than '-')", "other than 'ERROR IN CONTACTING RM' ones"): each becomes the filter that drops its lines, on
the column that holds the value, or else a search that keeps the lines without its text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from react_engine.understanding import Vocabulary
from react_engine.understanding.query import FieldFilter, Filter, TextFilter
from react_engine.understanding.reading.lexicon import METHODS, SEVERITY_WORDS, TARGETS
from react_engine.understanding.reading.question import Question
from react_engine.understanding.vocabulary import singular

_EXCEPT = (r"\(?\b(?:other than|except(?:\s+for)?|excluding|besides|apart from|not counting)"
           r"\s+(?:(?:the|those|that|any)\s+)?(?:\"([^\"]+)\"|'([^']+)'|`([^`]+)`|([^\s?,;()\"']+(?:[ \t]+[^\s?,;()\"']+)"
           r"{0,2}))\)?")
# words after the value that only say "lines" ("ftpd ones"), and words that end it ("root had"); a noun naming a
# kind of line ("GET requests") stays part of the value
_NOUNS = re.compile(r"\s+(?:ones?|lines?|entries|entry|messages?|events?|records?|rows?)$", re.I)
_ENDS = re.compile(r"\s+(?:had|has|have|did|does|do|is|are|was|were|shows?|showed|appears?|logged|in|on|at|from|by"
                   r"|with|for|during|since|between|\w{3,}ed)\b.*$", re.I)
_CORE = {"timestamp", "message", "raw", "source", "line", "severity"}  # "lines other than INFO" names no column


@dataclass(frozen=True)
class Exclusion:
    """A value to leave out, and the word before "other than" ("components", "level"), which may say where."""

    text: str
    before: str | None = None
    at: int = 0  # where `before` starts in the question


def excluded(q: Question) -> list[Exclusion]:
    """The values the question leaves out; their words become consumed."""
    found = []
    for m in q.take(_EXCEPT):
        quoted = next((g for g in m.groups()[:3] if g), None)
        text = quoted if quoted is not None else _NOUNS.sub("", _ENDS.sub("", m.group(4)))
        if quoted is None and text != m.group(4):  # give back the words after the value
            q.consume(m.start(4) + len(text), m.end(), used=False)
        before = re.search(r"\b([A-Za-z_]\w*)\s*$", q.text[:m.start()])
        found.append(Exclusion(text, before.group(1), before.start(1)) if before else Exclusion(text))
    return found


def claim_columns(q: Question, exclusions: list[Exclusion], columns: list[str]) -> None:
    """Consume the words before "other than" that name a column ("a flag other than 1") and no rule has read."""
    for value in exclusions:
        if value.before and _named_column(value.before, columns) and not q.used[value.at]:
            q.consume(value.at, value.at + len(value.before))


def leave_out(value: Exclusion, ranked: str | None, columns: list[str], vocabulary: Vocabulary) -> Filter | None:
    """The filter that drops the lines holding `value`: on the column the question
    names before "other than", the level, host, component or method it is, else the column or entity `ranked`,
    else the lines whose text contains it. None when the rows hold it nowhere."""
    text, words = value.text, f"other than {value.text}"
    column = _named_column(value.before, columns)
    if column is None:
        column, text = _holder(text, columns, vocabulary) or (ranked, text)
    if column is not None:
        return FieldFilter(field=column, value=text, op="ne", words=words)
    for form in dict.fromkeys([text, re.sub(r"(\w+)$", lambda m: singular(m.group(1)), text)]):
        if vocabulary.together([re.escape(form)])[0]:
            return TextFilter(value=form, exclude=True, words=words)
    return None


def _named_column(word: str | None, columns: list[str]) -> str | None:
    """The column a word before "other than" names: "components" -> component, "a flag" -> flag."""
    if word is None:
        return None
    kind = next((kind for kind, p in TARGETS if re.fullmatch(p, word, re.I)), singular(word.lower()))
    return kind if kind in columns and kind not in _CORE else None


def _holder(text: str, columns: list[str], vocabulary: Vocabulary) -> tuple[str, str] | None:
    """`(column, value as written)` for a level, name or HTTP method the rows hold."""
    levels = [v for v in vocabulary.values.get("level_raw", {}) if _is_level(v, text)]
    if len(levels) == 1:
        return "level_raw", levels[0]
    canonical = next((level for pattern, level in SEVERITY_WORDS if re.fullmatch(pattern, text, re.I)), None)
    if canonical is not None and "severity" in columns:
        return "severity", canonical.lower()
    holders = {(c, v) for c, v, _ in vocabulary.holders(text)}
    if len(holders) == 1:
        return next(iter(holders))
    if "method" in columns and text.upper() in METHODS.split("|"):
        return "method", text.upper()
    return None


def _is_level(level: str, text: str) -> bool:
    """Whether `text` names the written level `level`: as written, in the plural, or by its word (V: verbose)."""
    written, word = level.lower(), singular(text.lower())
    return written == word or (len(written) == 1 and word.startswith(written) and word.isalpha() and len(word) > 3)
