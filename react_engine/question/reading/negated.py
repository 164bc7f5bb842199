"""The negated words of a question ("ERROR lines other than 'X'", "not from dfs.FSNamesystem"), read on their own
as a question's words would be, into the one filter that leaves their lines out (see `negation`)."""

from __future__ import annotations

import re

from react_engine.lexicon.event_phrases import METHODS
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.literals import read_literals
from react_engine.question.reading.log_words import ground
from react_engine.question.reading.measure import RANKED
from react_engine.question.reading.negation import Exclusion, Negation, leaving_out, one_value, reopened
from react_engine.question.reading.places import read_places
from react_engine.question.reading.question import Question
from react_engine.question.reading.texts import read_texts
from react_engine.question.vocabulary import Vocabulary


def read_negated(q: Question, negated: Negation, draft: Draft, columns: list[str], uses_severity: bool,
                 vocabulary: Vocabulary) -> None:
    """The filter for the negated words, with `exclude`; a problem when they name no one thing to leave out. One
    value left out of a ranking or a distinct count is left out of the values ranked instead."""
    words = negated.words(q.text).strip()
    if negated.other_event():
        draft.other_event = words, _inner(q, negated, words, columns, uses_severity, vocabulary)
        return
    if draft.goal in RANKED and (value := one_value(words)) is not None:
        draft.excluded.append(Exclusion(value))
        return
    part = _inner(q, negated, words, columns, uses_severity, vocabulary)
    found = leaving_out(part.filters)
    if found is None:
        draft.problem = (f'I could not tell which lines "{negated.cue} {words}" leaves out: name one level, '
                         "component, host or quoted text after it")
        return
    if re.fullmatch(rf"(?:{METHODS})\b.*", words):  # "requests other than GET": the other requests
        draft.keep_or_search(columns, "method", f"^(?:{METHODS})$", "with an HTTP method", f'"(?:{METHODS}) ',
                             "regex")
    left_out = " and ".join(f.words for f in part.filters)
    draft.filters.append(found.model_copy(update={"words": f"not {left_out}"}))
    draft.negated.append(left_out)
    draft.terms += [term.model_copy(update={"negated": True}) for term in part.terms]
    draft.corrections += part.corrections
    draft.ignored += part.ignored


def _inner(q: Question, negated: Negation, words: str, columns: list[str], uses_severity: bool,
           vocabulary: Vocabulary) -> Draft:
    """The negated words read as a question of their own: a column's value, or what its words search for (no
    filter when a word cannot be read)."""
    part = Draft()
    if negated.column:
        part.keep(negated.column, words.strip("'\"`"), f"with {negated.column} {words}")
        return part
    inner = reopened(q, negated)
    read_literals(inner, part, vocabulary)
    read_places(inner, part, columns, vocabulary)
    read_texts(inner, part, columns, uses_severity, vocabulary)
    if ground(inner, part, vocabulary, []) or part.problem:
        part.filters = []
    return part
