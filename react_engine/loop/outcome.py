"""How a run's answer is judged: checked against the numbers and times the tools computed, and against what the
question asked (an answer to less is partial, and never verified), with the log lines behind it."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from react_engine.answer.check import evidence, verify, with_notes
from react_engine.answer.dating import with_year_note
from react_engine.answer.grounds import grounds
from react_engine.answer.hint import REPHRASE
from react_engine.contract.planner import Planner
from react_engine.contract.record import Evidence, RunResult, Statistics, Step, last_value
from react_engine.loop.state import RunState
from react_engine.loop.stops import Stop
from react_engine.question import Interpretation
from react_engine.rows.snippets import cut, json_text
from react_engine.settings import Settings


@dataclass
class Outcome:
    """The answer as shown, its value, whether it is verified or partial, its evidence and any warnings."""

    answer: str = ""
    value: Any = None
    verified: bool = False
    partial: bool = False
    evidence: list[Evidence] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def judged(state: RunState, final: tuple[str, Any], interpretation: Interpretation | None, narrowing: set[str],
           settings: Settings, deadline: float, expected: Any = None) -> Outcome:
    """The final answer checked: its numbers against what the tools computed (until `deadline`, with at least
    two seconds for it), its scope against the question's reading, and its value against `expected` (the value
    the question's reading computes from the same steps, when known): a value computed for another question
    (the last time where the first was asked) is not verified."""
    answer, value = final
    last = last_value(state.steps)
    basis = grounds(state.steps, narrowing, state.notes)
    verdict = verify(answer, value, basis.values, state.question, last.value if last else None, basis.names,
                     times=basis.times, deadline=max(deadline, time.monotonic() + 2))
    out = Outcome(answer=answer, value=value, verified=verdict.verified)
    if warning := verdict.warning(last.action if last else None, last.value if last else None):
        out.warnings.append(warning)
    if expected is not None and out.verified:
        _check_expected(out, expected)
    if out.verified and (doubt := _no_answer(answer, value, interpretation)) is not None:
        out.verified = False
        out.warnings += [doubt] if doubt else []
    _mark_partial(out, state, interpretation)
    out.answer = with_year_note(with_notes(out.answer, state.notes), state.frame, state.year_given, state.rows,
                                state.now)
    out.evidence = evidence(state.frame, state.evidence, state.rows, settings.evidence_lines)
    return out


def _check_expected(out: Outcome, expected: Any) -> None:
    """Unverify `out`, saying why, when its value is not `expected`, the value computed for the question as read."""
    if not same_value(out.value, expected):
        out.verified = False
        out.warnings.append(f"unverified: the answer's value {cut(json_text(out.value), 80)} is not "
                            f"{cut(json_text(expected), 80)}, the value the tools computed for the question as read")


def _mark_partial(out: Outcome, state: RunState, interpretation: Interpretation | None) -> None:
    """Mark `out` partial when the question also asks for what no tool computed, and say so first (a refusal,
    where no tool ran, answered no part: it stays a refusal)."""
    missing = unanswered(state.steps, interpretation)
    if missing is None or not any(s.kind == "tool" and s.ok for s in state.steps):
        return
    out.verified, out.partial = False, True
    out.warnings.append(f"partial: the question also asks for {missing}, which no tool computed in this run")
    if not any(said in out.answer for said in ("cannot compute", "did not read", "could not answer")):
        out.answer = f"Partial answer (not computed: {missing}): {out.answer}"


def same_value(a: Any, b: Any) -> bool:
    """Two final values alike: numbers within rounding (six significant digits), texts without case or edge
    spaces, lists and dicts item by item."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=5e-6, abs_tol=1e-9)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    return _same_items(a, b)


def _same_items(a: Any, b: Any) -> bool:
    """Dicts key by key and lists item by item (see `same_value`); anything else equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return a == b



def _no_answer(answer: str, value: Any, interpretation: Interpretation | None) -> str | None:
    """Why a checked answer is still no verified one ("" when a refusal says why itself), or None: a refusal that
    asks for the question again answers nothing, and a zero for words no line uses says nothing of what was meant."""
    if value is None and REPHRASE in answer:
        return ""
    if never := _never_used(value, interpretation):
        return f"unverified: no line of the log uses {never}, so a zero says nothing about what was meant"
    return None


def _never_used(value: Any, interpretation: Interpretation | None) -> str:
    """The question's words no line of the log holds, in quotes, when the answer is a zero or nothing ("" else)."""
    query = interpretation.query if interpretation else None
    if query is None or not query.never or value not in (0, None):
        return ""
    return ", ".join(f'"{w}"' for w in query.never)


def unloaded(question: str, started: float, planner: Planner, stop: Stop) -> RunResult:
    """The result of a run that ended before its logs were loaded."""
    stats = Statistics(execution_time_seconds=round(time.monotonic() - started, 4))
    return RunResult(query=question, answer=f"No answer: {stop.message}" if stop.message else "No answer.",
                     stop_reason=stop.reason, message=stop.message, error_type=stop.error_type, statistics=stats,
                     planner=planner.name, model=planner.model)


def unfinished(state: RunState) -> Outcome:
    """A run that ended before a final answer: the last value a tool computed, as a partial answer (or nothing)."""
    last = last_value(state.steps)
    if last is None:
        return Outcome()
    return Outcome(answer=with_year_note(f"Partial answer (unverified): {last.observation}", state.frame,
                                         state.year_given, state.rows, state.now),
                   value=last.value, partial=True)


def unanswered(steps: list[Step], interpretation: Interpretation | None) -> str | None:
    """What the question asks that no tool of the run computed, by its typed reading (None: all of it)."""
    query = interpretation.query if interpretation else None
    ran = {s.action for s in steps if s.kind == "tool" and s.ok and s.action}
    return query.unanswered(ran) if query is not None else None
