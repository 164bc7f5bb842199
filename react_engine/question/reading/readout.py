"""What reading a question gives: the `Query` (or the problem that stops it), the interpretation shown with the
answer, and what a planner needs to tell an honest zero from words that never meet."""

from __future__ import annotations

from dataclasses import dataclass

from react_engine.question.interpretation import Interpretation
from react_engine.question.measures import Measure
from react_engine.question.query import Query


@dataclass(frozen=True)
class Reading:
    """The typed reading of one question.

    `query` is what the question asks (also, with `problem` set, what was asked of a question that could not be
    read, so that any reply is checked against it); `measured` is what its goal alone measures, answered in place
    of an asked measure no tool computes yet; `asked` is the measure the asking words ask for. `guesses` are the
    searches for the question's own words and `absent` those for words no row holds (a zero is then an answer);
    `level_noun` marks a severity word after quoted text, which may name the lines rather than their level."""

    query: Query | None
    interpretation: Interpretation
    problem: str | None = None
    measured: Measure | None = None
    asked: Measure | None = None
    guesses: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    level_noun: bool = False
