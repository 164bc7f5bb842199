"""Where lines come from: pids, hosts, components and threads the question names (known from the data, or
host-like names after "on"), a source named that the rows do not hold as written, and the words that continue a
name already read."""

from __future__ import annotations

import re
from collections.abc import Mapping

from react_engine.lexicon.entity_words import GENERIC_COMPONENTS, HOST_WORD, TARGETS
from react_engine.question.interpretation import Term
from react_engine.question.query import FieldFilter
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.question import Question, known
from react_engine.question.reading.source_words import named_source
from react_engine.question.vocabulary import NAME_COLUMNS, Vocabulary
from react_engine.tools.regex import literal


def read_places(q: Question, draft: Draft, columns: list[str], vocabulary: Vocabulary) -> None:
    """Pids, hosts and components named in the question (known from the data, or host-like names after `on`)."""
    for m in q.take(r"\b(?:pid|process(?:[- ]?id)?)\s*[#=:]?\s*(\d+)\b"):
        draft.keep_or_search(columns, "pid", m.group(1), f"with pid {m.group(1)}", f"[{m.group(1)}]")
        draft.terms.append(Term(word=m.group(1), column="pid", value=m.group(1),
                                rows=vocabulary.values.get("pid", {}).get(m.group(1))))
    values = {column: list(vocabulary.values.get(column, {})) for column in NAME_COLUMNS}
    _one_of(draft, "thread", known(q, values["thread"], set(), after=r"(?=\s+threads?\b)"), "from thread", vocabulary)
    hosts = known(q, values["host"], set())
    components = known(q, values["component"], {h.lower() for h in hosts}, GENERIC_COMPONENTS,
                       as_written=_minor(vocabulary.values.get("component", {})), kind=dict(TARGETS)["component"])
    for m in q.take(r"\b(?:on|from|at|for)\s+" + HOST_WORD + r"([A-Z][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*)\b", 0,
                    accept=lambda m: not re.fullmatch(r"T\d|\d+[a-z]*", m.group(1))):
        hosts.append(m.group(1))
    _one_of(draft, "host", hosts, "on host", vocabulary)
    _one_of(draft, "component", components, "from", vocabulary)
    _one_of(draft, "user", _users(q, vocabulary), "from user", vocabulary)


def _users(q: Question, vocabulary: Vocabulary) -> list[str]:
    """The values of a `user` column the question names after "user" ("user carol", "user=carol") or after
    "from"/"by" ("lines from alice")."""
    lead = r"\b(?:(?:from|by)\s+(?:the\s+)?(?:users?\s*[=:]?\s*)?|users?\s*[=:]?\s*)"
    return [v for v in vocabulary.values.get("user", {}) if q.take(lead + re.escape(v) + r"\b")]


def _minor(counts: Mapping[str, int]) -> frozenset[str]:
    """The values, not all lower case, that hold under half of the rows: a generic word written as one of them
    ("APP" in BGL) names it, unlike "CMTS", the component of every line of a CMTS log."""
    total = sum(counts.values())
    return frozenset(v for v, n in counts.items() if v != v.lower() and 2 * n < total)


def _one_of(draft: Draft, column: str, values: list[str], words: str, vocabulary: Vocabulary) -> None:
    """Keep the rows whose `column` is any of `values` (several names mean either of them)."""
    if not values:
        return
    counts = vocabulary.values.get(column, {})
    draft.terms += [Term(word=v, column=column, value=v, rows=counts.get(v) or None) for v in values]
    shown = f"{words} {' or '.join(values)}"
    if len(values) == 1:
        draft.keep(column, values[0], shown)
    else:
        draft.keep(column, "^(?:" + "|".join(literal(v) for v in values) + ")$", shown, "regex")


def read_source(q: Question, draft: Draft, columns: list[str], vocabulary: Vocabulary) -> None:
    """A source the question names that no row holds as written: the value it is a typo of, or an honest 0."""
    if (source := named_source(q, columns, vocabulary)) is None:
        return
    column, value, typo = source
    draft.keep(column, value, f"{'on host' if column == 'host' else 'from'} {value}")
    draft.corrections += [typo] if typo else []
    draft.grounding.absent += [] if typo else [value]
    draft.terms.append(Term(word=typo.written if typo else value, column=column, value=value,
                            rows=vocabulary.values.get(column, {}).get(value, 0)))


def continues_name(q: Question, m: re.Match[str], draft: Draft) -> bool:
    """Whether the word `m`, next to words a rule read, is part of a name the reading filters on: "the python
    runner", where "python" gave the component python.PythonRunner, names it rather than a word to search for."""
    word = m.group(0).lower()
    names = [str(f.value).lower() for f in draft.filters if isinstance(f, FieldFilter)
             and f.field in NAME_COLUMNS and f.op == "eq"]
    return len(word) > 2 and any(q.used[i] for i in _beside(q.text, m)) and any(word in name for name in names)


def _beside(text: str, m: re.Match[str]) -> list[int]:
    """Where the text right before and right after the word `m` is, past any spaces."""
    before, after = text[: m.start()].rstrip(), text[m.end() :]
    return ([len(before) - 1] if before else []) + (
        [m.end() + len(after) - len(after.lstrip())] if after.strip() else [])
