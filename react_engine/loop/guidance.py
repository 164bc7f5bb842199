"""Self-direction: what the engine tells a planner that stalls, gives up early or finds nothing."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from react_engine.answer.grounds import reports_nothing
from react_engine.answer.quantities import numbers_in
from react_engine.errors import ReplyError
from react_engine.rows.snippets import from_log
from react_engine.tools.timeexpr import relative

if TYPE_CHECKING:
    from react_engine.loop.state import RunState
    from react_engine.settings import Settings

_INTENT = re.compile(
    r"^\s*(?:ok(?:ay)?[,.]?\s*|sure[,.]?\s*|first[,.]?\s*|next[,.]?\s*|now[,.]?\s*)*"
    r"(?:i(?:'ll| will| am going to|'m going to| need to| should| would| want to)|let me|let's|we(?:'ll| will| need to)"
    r"|going to|to answer this,? i)\b",
    re.I,
)


def is_intent_only(text: str) -> bool:
    """A statement of what the writer is about to do, with no result in it."""
    return bool(_INTENT.search(text or "")) and not numbers_in(text or "")


def reask(error: ReplyError, valid_tools: list[str]) -> str:
    """The compact correction shown to the planner after an invalid reply."""
    if error.kind == "unknown_tool":
        return f"your last reply named an unknown tool; valid tools: {', '.join(valid_tools)}. Reply with one JSON object."
    if error.items:
        items = "; ".join(f"{{loc: {i.loc}, msg: {i.msg}}}" for i in error.items[:5])
        return f"your last reply was not a valid action: {error}: {items}. Fix the params and reply with one JSON object."
    return f"your last reply was not a valid action: {error}; reply with one JSON object."


def repeated(action: str, first: int, observation: str) -> str:
    """The feedback after a call that repeats the one of step `first`, whose result (log data) was `observation`."""
    return (f"you already ran {action} with these params at step {first} (result: {from_log(observation)}); "
            "do something else or finalize_answer.")


def repeats_stop(times: int) -> str:
    """Why a run stops after the planner repeated a call `times` times."""
    return (f"the planner repeated the same call {times} {'time' if times == 1 else 'times'}: stopped with the best "
            "answer so far; look at the trace (react-engine trace show FILE)")


NUDGE_ACT = "you stated an intention but took no action: do it now: reply with the action as one JSON object."


def widen(start: str, factor: float) -> str | None:
    """`now-1h` widened by `factor` (`now-4h`), or None when `start` is not relative."""
    parts = relative(start)
    if parts is None or parts[0] != "-":
        return None
    _, amount, unit = parts
    return f"now-{amount * factor:g}{unit}"


def empty_hint(action: str, params: dict[str, Any], factor: float, tried: list[str]) -> str:
    """Suggestions, in order, after a search or filter left no rows."""
    hints = []
    if action == "search_logs":
        hints.append("broaden the term: a shorter word, case-insensitive, or a synonym (e.g. 'timeout' for 'T3 time-out')")
    if action == "filter_by_time" and (wider := widen(str(params.get("start", "")), factor)):
        hints.append(f"widen the time window: filter_by_time(start=\"{wider}\", end=\"now\")")
    hints.append("reset_filters() and narrow differently")
    if action == "filter_by_field":
        hints.append("try another field or op=\"contains\"")
    else:
        hints.append("try another field with filter_by_field")
    done = f" Tried so far: {from_log(', '.join(tried))}." if tried else ""
    return f"{action} left 0 rows. Try, in order: " + "; ".join(hints) + "." + done


def giveup_nudge(tried: list[str]) -> str:
    listed = from_log(", ".join(tried)) if tried else "nothing yet"
    return (
        f"you reported that nothing was found after trying only: {listed}. Try one different approach "
        "(a broader search, a wider time window, another field) before concluding."
    )


def final_nudge(answer: str, value: Any, state: RunState, settings: Settings, deterministic: bool) -> str | None:
    """The feedback that sends a final answer back once (counted on `state`): an answer that only states an
    intention, or, for a planner that may try otherwise, one that reports nothing found after a single strategy.
    None: the answer stands."""
    if settings.intent_detection_enabled and is_intent_only(answer) and state.intent_nudges < 1:
        state.intent_nudges += 1
        return NUDGE_ACT
    gave_up = reports_nothing(answer, value) and len(set(state.strategies_tried)) < 2
    if (settings.auto_retry_enabled and gave_up and not deterministic
            and state.giveup_nudges < settings.max_retry_attempts):
        state.giveup_nudges += 1
        return giveup_nudge(state.strategies_tried)
    return None
