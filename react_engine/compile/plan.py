"""The rules planner's plan for a question: its reading compiled into tool calls, built once per run."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace

from react_engine.compile import Call, Cannot, compile_query
from react_engine.compile.calls import call
from react_engine.contract.planner import ContextView
from react_engine.question import Interpretation, Query, Vocabulary
from react_engine.question.measures import Count, Measure
from react_engine.question.reading.export_words import Export, read_export
from react_engine.question.reading.read import read_question
from react_engine.question.reading.readout import Reading
from react_engine.tools import REGISTRY
from react_engine.tools.export import ExportResultsParams


@dataclass(frozen=True)
class Plan:
    """A question's reading, the calls that answer it (`measure` is what they compute), what was asked that no
    tool computes yet (`cannot`), and why the question cannot be answered (`problem`)."""

    reading: Reading
    calls: list[Call] = field(default_factory=list)
    measure: Measure = field(default_factory=Count)
    cannot: Cannot | None = None
    problem: str | None = None

    @property
    def writes(self) -> bool:
        """Whether the plan writes its rows to files (an export) rather than measuring them."""
        return any(c.action == "export_results" for c in self.calls)

    @property
    def query(self) -> Query | None:
        return self.reading.query

    def scope(self) -> list[str]:
        """What the filters keep and leave out, in words."""
        query = self.reading.query
        return [f.words for f in (*query.filters, *query.left_out)] if query is not None else []

    def unread(self) -> tuple[str, ...]:
        return self.reading.query.unread if self.reading.query is not None else ()

    def interpretation(self) -> Interpretation:
        """What the question was read as, with the problem compiling it found."""
        return self.reading.interpretation.model_copy(update={"problem": self.problem})


def compiled(reading: Reading) -> Plan:
    """The plan for `reading`: its query's calls; when no tool computes the asked measure yet, the calls for what
    its goal alone measures (the rest of the question is answered)."""
    query, problem = reading.query, reading.problem
    if problem is None and query is not None and reading.measured is not None:
        plan = _measured(reading, query, reading.measured)
        if isinstance(plan, Plan):
            return plan
        problem = plan.sentence()
    if problem and reading.asked is not None and isinstance(unserved := compile_query(Query(measure=reading.asked)),
                                                            Cannot):
        problem = f"{unserved.sentence()}, and {problem}"
    return Plan(reading, problem=problem)


def _measured(reading: Reading, query: Query, goal: Measure) -> Plan | Cannot:
    """The plan of the query's calls; when no tool computes its measure, of the calls for its `goal` alone (what
    was asked kept as `cannot`); `Cannot` when neither compiles."""
    calls = compile_query(query)
    if not isinstance(calls, Cannot):
        return Plan(reading, calls, query.measure)
    cannot = calls
    calls = compile_query(query.model_copy(update={"measure": goal}))
    return calls if isinstance(calls, Cannot) else Plan(reading, calls, goal, cannot)


# plans already built, per vocabulary (one per load) and question, columns, time anchor and use of severity
_PLANS: weakref.WeakKeyDictionary[Vocabulary, dict[tuple[str, tuple[str, ...], str | None, bool], Plan]] = \
    weakref.WeakKeyDictionary()


def exporting(export: Export, rows: Plan) -> Plan:
    """The plan that writes the rows `rows` keeps (its narrowing calls) to each of the export's files."""
    if rows.problem:
        return rows
    keep = [c for c in rows.calls if REGISTRY[c.action].narrows]
    writes = [call(ExportResultsParams(path=path, format=fmt),
                   f"write the rows to {path} ({fmt}); the user approves it first") for path, fmt in export.files]
    return replace(rows, calls=keep + writes)


def build_plan(question: str, view: ContextView, uses_severity: bool) -> Plan:
    """The whole plan for `question`, derived only from the question and what does not change during a run: built
    once per run (per vocabulary) and shared by every later turn. A question asking to write rows to files is
    the plan for those rows, then the writes."""
    if (export := read_export(question)) is not None:
        return exporting(export, build_plan(export.rows or "all lines", view, uses_severity))
    if view.vocabulary is None:
        vocabulary = Vocabulary.of_values(view.known_values)
        return compiled(read_question(question, view.columns, view.now, vocabulary, uses_severity))
    plans = _PLANS.setdefault(view.vocabulary, {})
    key = (question, tuple(view.columns), view.now, uses_severity)
    if key not in plans:
        plans[key] = compiled(read_question(question, view.columns, view.now, view.vocabulary, uses_severity))
    return plans[key]
