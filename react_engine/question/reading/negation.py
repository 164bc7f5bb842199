"""Negation in a question, read in one place: the negated words ("other than A", "except A", "not from A", "non-A",
"that aren't A") and the values left out ("components other than dfs.FSNamesystem", "which label (other than
'-')").

The negated words are read on their own, as the words of a question would be, and the one filter they give is
sent with `exclude` so that the rows which do NOT match it are kept; the rest of the question is read without
them ("ERROR lines other than 'X'" keeps the errors, then leaves out the lines containing X). A value left out
becomes the filter that drops its lines, on the column that holds it, or else a search that keeps the lines
without its text.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from react_engine.lexicon.entity_words import CORE_COLUMNS, TARGETS
from react_engine.lexicon.event_phrases import METHODS
from react_engine.lexicon.never_words import NEVER_CUE
from react_engine.lexicon.rank_words import STRETCH
from react_engine.lexicon.severity_terms import SEVERITY_WORDS
from react_engine.question.query import FieldFilter, Filter, TextFilter
from react_engine.question.reading.question import Question
from react_engine.question.vocabulary import Vocabulary, singular
from react_engine.tools.regex import literal

# the words that leave a value out; with the others below, the words that negate what follows
_LEAVING = r"other than|except(?:\s+for)?|excluding|apart from|besides|not counting"
# "not from X" keeps "from" with X, as a source is named
_CUE = re.compile(r"\b(?:" + _LEAVING + "|" + NEVER_CUE + r"|aside from|but not|"
                  r"ignoring|without|(?:that|which|who) (?:are not|aren't|were not|weren't|is not|isn't|was not|"
                  r"wasn't|did not|didn't|do not|don't|does not|doesn't)(?: come| came)?|not(?= (?:from|by|on)\b))"
                  r"\s+|\bnon-(?=\w)", re.I)
# where the negated words end: the end of the clause, a time or grouping phrase, or a new question
_END = re.compile(r"\s*(?:[?!;,)]|\.(?:\s|$)|$)|\s+(?:in|on|at|during|between|since|after|before|until|per|by|"
                  r"and (?:how|which|what)|grouped|broken)\b", re.I)
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|`[^`]*`|(?<!\w)'[^']*'(?!\w)")
# a column named just before the cue ("a flag other than 1", "a level other than INFO")
_COLUMN_BEFORE = re.compile(r"\b(?:an?|the|its|their|with)\s+(\w+)\s+$", re.I)
MAX_WORDS = 3  # lines containing each of at most this many words are searched as one pattern


@dataclass(frozen=True)
class Negation:
    """The negated words of a question: `text[start:end]`, after the cue `cue`."""

    cue: str
    start: int
    end: int
    column: str | None = None  # a column the question names right before the cue

    def words(self, text: str) -> str:
        return text[self.start:self.end]

    def other_event(self) -> bool:
        """Whether the words name another event the values never come up on ("but never an accepted one")."""
        return re.fullmatch(NEVER_CUE, self.cue, re.I) is not None


def find(q: Question, columns: list[str]) -> Negation | None:
    """The first negation in the question, its cue consumed and its words hidden from the rest of the reading
    (None when there is none). A one-word scope after "non-" ("non-INFO lines")."""
    masked = _QUOTED.sub(lambda m: "x" * len(m.group()), q.text)
    for m in _CUE.finditer(masked):
        if any(q.used[m.start():m.end()]) or re.search(STRETCH + r"\s+$", masked[:m.start()], re.I):
            continue  # "the longest stretch without a WARN" asks the gaps between the WARN lines
        start = m.end()
        if m.group().lower().startswith("non-"):
            end = start + len(re.match(r"[\w.-]*", masked[start:]).group())  # type: ignore[union-attr]
        else:
            stop = _END.search(masked, start + 1)
            end = stop.start() if stop else len(masked)
        if end <= start:
            continue
        before = _COLUMN_BEFORE.search(q.text[:m.start()])
        column = before.group(1).lower() if before and before.group(1).lower() in columns else None
        q.consume(before.start(1) if column and before else m.start(), end)
        return Negation(cue=m.group().strip(), start=start, end=end, column=column)
    return None


def one_value(words: str) -> str | None:
    """The value the negated words name when they are one token or one quoted phrase ("root", "'-'"), else None."""
    m = re.fullmatch(r"\"([^\"]+)\"|'([^']+)'|`([^`]+)`|([^\s'\"`]+)", words.strip())
    return next(g for g in m.groups() if g) if m else None


def reopened(q: Question, negation: Negation) -> Question:
    """The question with only the negated words left to read."""
    inner = Question(q.text)
    inner.used = [not negation.start <= i < negation.end for i in range(len(q.text))]
    return inner


def leaving_out(filters: list[Filter]) -> Filter | None:
    """The one filter that keeps the rows the negated `filters` do not describe: the filter itself with `exclude`,
    or, for several searches, one search for the lines containing each of them; None when the rows they describe
    together cannot be left out with one filter."""
    if len(filters) == 1:
        return filters[0].model_copy(update={"exclude": True})
    searches = [f for f in filters if isinstance(f, TextFilter)]
    if not filters or len(filters) > MAX_WORDS or len(searches) < len(filters):
        return None
    parts = [_pattern(f) for f in searches]
    both = "(?s)" + "|".join(".*".join(order) for order in itertools.permutations(parts))
    return TextFilter(value=both, regex=True, case_sensitive=True, exclude=True)


def _pattern(f: TextFilter) -> str:
    """A search's value as a case-sensitive pattern (a search that ignores case says so inside)."""
    pattern = f.value if f.regex else literal(f.value)
    return f"(?:{pattern})" if f.case_sensitive else f"(?i:{pattern})"


_EXCEPT = (r"\(?\b(?:" + _LEAVING + ")"
           r"\s+(?:(?:the|those|that|any)\s+)?(?:\"([^\"]+)\"|'([^']+)'|`([^`]+)`|([^\s?,;()\"']+(?:[ \t]+[^\s?,;()\"']+)"
           r"{0,2}))\)?")
# words after the value that only say "lines" ("ftpd ones"), and words that end it ("root had"); a noun naming a
# kind of line ("GET requests") stays part of the value
_NOUNS = re.compile(r"\s+(?:ones?|lines?|entries|entry|messages?|events?|records?|rows?)$", re.I)
_ENDS = re.compile(r"\s+(?:had|has|have|did|does|do|is|are|was|were|shows?|showed|appears?|logged|in|on|at|from|by"
                   r"|with|for|during|since|between|\w{3,}ed)\b.*$", re.I)


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
    return kind if kind in columns and kind not in CORE_COLUMNS else None


def _holder(text: str, columns: list[str], vocabulary: Vocabulary) -> tuple[str, str] | None:
    """`(column, value as written)` for a level, name or HTTP method the rows hold."""
    if (level := _level_holder(text, columns, vocabulary)) is not None:
        return level
    holders = {(c, v) for c, v, _ in vocabulary.holders(text)}
    if len(holders) == 1:
        return next(iter(holders))
    if "method" in columns and text.upper() in METHODS.split("|"):
        return "method", text.upper()
    return None


def _level_holder(text: str, columns: list[str], vocabulary: Vocabulary) -> tuple[str, str] | None:
    """`(column, value)` for a level the rows write as `text` names it, else the severity it names."""
    levels = [v for v in vocabulary.values.get("level_raw", {}) if _is_level(v, text)]
    if len(levels) == 1:
        return "level_raw", levels[0]
    canonical = next((level for pattern, level in SEVERITY_WORDS if re.fullmatch(pattern, text, re.I)), None)
    return ("severity", canonical.lower()) if canonical is not None and "severity" in columns else None


def _is_level(level: str, text: str) -> bool:
    """Whether `text` names the written level `level`: as written, in the plural, or by its word (V: verbose)."""
    written, word = level.lower(), singular(text.lower())
    return written == word or (len(written) == 1 and word.startswith(written) and word.isalpha() and len(word) > 3)
