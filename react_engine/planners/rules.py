"""The rules planner: each turn, the next call of the question's plan, or the final answer."""

from __future__ import annotations

from typing import Any

from react_engine.answer.hint import REPHRASE, closest_words, failure_words, rephrase_hint
from react_engine.answer.writing import answer, partial, scope
from react_engine.compile.plan import Plan, build_plan
from react_engine.contract.actions import Final, ToolCall
from react_engine.contract.planner import ContextView, HistoryItem, Planner, PlannerReply, PlanRequest, Suggestion
from react_engine.question import Interpretation
from react_engine.tools import REGISTRY

NARROWING = frozenset(name for name, tool in REGISTRY.items() if tool.narrows)


def _final(text: str, value: Any, reasoning: str) -> PlannerReply:
    return PlannerReply(action=Final(text, value, reasoning), done_reason="stop")


class RulesPlanner(Planner):
    """Deterministic question -> tool sequence mapping; the default when no model is available."""

    name = "rules"
    calls_model = False
    reads_prompt = False  # it reads the structured view: no prompt is rendered for it
    deterministic = True

    def plan(self, request: PlanRequest) -> PlannerReply:
        view = request.view
        done = _taken(view)
        plan = _current_plan(view, done)
        if plan is None:
            return _final("I could not finish: the steps taken differ from my plan.", None, "stop rather than loop")
        stop = _stop(plan, view, done)
        if stop is not None:
            return stop
        if len(done) < len(plan.calls):
            call = plan.calls[len(done)]
            return PlannerReply(action=ToolCall(REGISTRY[call.action], call.model, call.reasoning), done_reason="stop")
        text, value = answer(plan, done)
        return _final(partial(plan, text, value) + plan.interpretation().stated(), value,
                      "the last tool computed the answer")

    def interpret(self, view: ContextView) -> Interpretation:
        """What the rules read the question as."""
        return advise(view)[0]

    def suggest(self, view: ContextView) -> Suggestion | None:
        """The rules' own next reply from `view`: a tool call, or the final answer when it carries the value the
        tools computed (so a model that copies it states that value). None when the rules would stop without a
        value: a question they cannot map, steps that left their plan, a failed step."""
        action = self.plan(PlanRequest(system="", prompt="", prompt_tokens=0, view=view)).action
        if isinstance(action, ToolCall):
            return action.tool.name, action.sent
        if isinstance(action, Final) and action.value is not None:
            return "finalize_answer", {"answer": action.answer, "value": action.value}
        return None


def _taken(view: ContextView) -> list[HistoryItem]:
    """The plan's steps taken: the tools run, and the writes the user did not approve (invalid replies, nudges and
    repeats ran nothing)."""
    return [h for h in view.history if h.kind == "tool" or (h.kind == "denied" and h.action == "export_results")]


def _stop(plan: Plan, view: ContextView, done: list[HistoryItem]) -> PlannerReply | None:
    """The final reply before the plan's calls are all made: a problem, a failed step, or no rows left."""
    if plan.problem:
        return _final(f"I could not answer this: {plan.problem}. {REPHRASE}: {rephrase_hint(view.vocabulary)}"
                      f".{plan.interpretation().stated()}", None, "the question does not map to the tools")
    if view.history and view.history[-1].kind == "tool" and not view.history[-1].ok:
        failed = view.history[-1]
        return _final(f"I could not answer this: {failure_words(failed.summary)}.", None,
                      "a step failed; stop rather than loop")
    if done and done[-1].action in NARROWING and view.row_count == 0:
        return _empty(plan, view, done[-1])
    return None


def _empty(plan: Plan, view: ContextView, last: HistoryItem) -> PlannerReply:
    """The reply when a narrowing step left no rows: words that never met, a severity word that may name the
    lines, or an honest 0."""
    reading, stated = plan.reading, plan.interpretation().stated()
    if reading.guesses and last.params.get("value") not in reading.absent:
        return _final(f"No log line matched all of{scope(plan)}: the question's words may not be the ones this "
                      f"log uses. {REPHRASE}: {rephrase_hint(view.vocabulary)}.{stated}",
                      None, "words of the question never met on one line")
    if last.action == "search_logs" and last.params.get("value") in reading.absent:
        return _never_used(plan, view, last)
    if last.action == "filter_by_severity" and reading.level_noun:
        return _final(f"No log lines matched{scope(plan)}, but the severity word after the quoted text may name "
                      "those lines rather than their level: ask again without it to count the lines containing "
                      f"the text.{stated}", None,
                      "a severity word after quoted text is ambiguous when it leaves no rows")
    return _final(partial(plan, f"No log lines matched{scope(plan)}, so the count is 0.", 0) + stated, 0,
                  "a narrowing step left no rows")


def _never_used(plan: Plan, view: ContextView, last: HistoryItem) -> PlannerReply:
    """The reply when a search for a word no line of the log holds left no rows: not a zero of something the log
    writes, but a word it never uses, and the closest words it does."""
    word = next((t.value or t.word for t in plan.interpretation().terms
                 if t.column == "message" and t.rows == 0), str(last.params.get("value")))
    close = closest_words(word, view.vocabulary)
    nearest = f' The closest words it uses: {", ".join(repr(w) for w in close)}.' if close else ""
    return _final(partial(plan, f'No line of this log uses a word starting "{word}", so the count is 0: '
                                "the log may name what you mean otherwise.", 0)
                  + nearest + plan.interpretation().stated(), 0, "a word of the question occurs in no line")


def _current_plan(view: ContextView, done: list[HistoryItem]) -> Plan | None:
    """The plan whose first steps are the ones already taken (None if none is).

    Severity words become a level filter when the rows carry levels and a text search otherwise; once the
    choice shows in the history it is kept, before that the current rows decide.
    """
    preferred = any(k != "missing" for k in view.severity_mix)
    for levels in (preferred, not preferred):  # the other plan is built only when the preferred one does not fit
        plan = build_plan(view.question, view, levels)
        if len(done) <= len(plan.calls) and all(h.action == c.action and h.params == c.params
                                                for h, c in zip(done, plan.calls)):
            return plan
    return None


def advise(view: ContextView) -> tuple[Interpretation, tuple[str, dict[str, Any]] | None]:
    """What the rules read the question as, and the next call of their plan when the steps taken so far follow it
    (the suggestion shown to model planners)."""
    done = _taken(view)
    plan = _current_plan(view, done)
    if plan is None:
        return build_plan(view.question, view, any(k != "missing" for k in view.severity_mix)).interpretation(), None
    if plan.problem or len(done) >= len(plan.calls):
        return plan.interpretation(), None
    call = plan.calls[len(done)]
    return plan.interpretation(), (call.action, call.params)
