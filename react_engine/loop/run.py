"""One question's loop: build a fresh prompt, ask the planner for one action, run it, record the step."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from react_engine.contract.actions import Action, Final, Invalid, ToolCall, read_action
from react_engine.contract.planner import Advisor, ContextView, Planner, PlannerReply, PlanRequest, Suggestion
from react_engine.contract.record import ActionStep, RunResult, Statistics, Step, StopReason, token_ratio
from react_engine.contract.reply_schema import portable_reply_schema
from react_engine.errors import ReplyError, ToolError, ToolTimeoutError
from react_engine.logs.mapped import settle
from react_engine.loop import guidance
from react_engine.loop.approval import Approver, consult
from react_engine.loop.context import build_prompt
from react_engine.loop.outcome import judged, unfinished
from react_engine.loop.planning import ask
from react_engine.loop.state import CallKey, RunState, call_key
from react_engine.loop.stops import Stop
from react_engine.loop.turn import Turn
from react_engine.question import Interpretation, Vocabulary
from react_engine.question.reading.read import read_question
from react_engine.rows.rowops import Rows, attrs, count, is_lazy
from react_engine.rows.snippets import cut, from_log, json_text
from react_engine.settings import Settings
from react_engine.tools import Tool, ToolContext, ToolResult
from react_engine.tracing import SpanHandle, Tracer

StepCallback = Callable[[Step], None]


class Crew(Protocol):
    """What a run takes from the engine that starts it."""

    planner: Planner
    fallback: Planner | None
    advisor: Advisor | None
    settings: Settings
    approver: Approver
    output_dir: Path
    tools: dict[str, Tool]
    on_step: StepCallback | None


def _offered(action: Action, tools: dict[str, Tool]) -> Action:
    """A typed `action`, or why it cannot be taken when its tool is not offered this turn."""
    if isinstance(action, ToolCall) and action.tool.name not in tools:
        error = ReplyError(f"unknown tool {action.tool.name!r}; valid tools: {', '.join(tools)}", kind="unknown_tool")
        return Invalid(error, action.tool.name, action.sent)
    return action


def _read(view: ContextView) -> Interpretation:
    """The question as understanding reads it, its severity words as levels where the rows carry levels."""
    vocabulary = view.vocabulary or Vocabulary.of_values(view.known_values)
    levels = any(k != "missing" for k in view.severity_mix)
    return read_question(view.question, view.columns, view.now, vocabulary, levels).interpretation


class Run:
    """One question, from loading to the final answer."""

    def __init__(self, engine: Crew, state: RunState, tracer: Tracer, started: float,
                 warnings: list[str], planner: Planner | None = None) -> None:
        self.engine = engine
        self.settings = engine.settings
        self.planner = planner or engine.planner
        self.question = state.question
        self.state = state
        self.tracer = tracer
        self.started = started
        self.stats = Statistics(rows_loaded=count(state.frame))
        self.warnings = warnings
        self.final: tuple[str, Any] | None = None
        self.interpretation: Interpretation | None = None
        self.suggested: Suggestion | None = None  # the last suggested reply a model was shown

    # -- the loop -------------------------------------------------------------------------------------------

    def execute(self) -> RunResult:
        try:
            for iteration in range(1, self.settings.max_iterations + 1):
                self._check_time()
                with self.tracer.span("iteration", iteration=iteration) as span:
                    self._iterate(iteration, span)
                if self.final is not None:
                    return self._finish("stop")
            raise Stop("tool_limit", f"hit max_iterations ({self.settings.max_iterations}): "
                                      "raise it with --max-iterations")
        except Stop as stop:
            return self._finish(stop.reason, stop.message, stop.error_type)
        except KeyboardInterrupt:
            return self._finish("interrupted", "interrupted by the user (Ctrl-C)")

    def _check_time(self) -> None:
        if time.monotonic() - self.started > self.settings.timeout_seconds:
            raise Stop("time_limit", f"hit the run timeout ({self.settings.timeout_seconds:g}s): "
                                      "raise it (--timeout) or narrow the question")

    def _tools(self) -> dict[str, Tool]:
        return {n: t for n, t in self.engine.tools.items() if n not in self.state.disabled_tools}

    def _wanted(self) -> frozenset[str]:
        """The optional tools a prompt keeps listing: those the question's reading needs and those already called."""
        query = self.interpretation.query if self.interpretation else None
        needs = query.measure.needs if query is not None else ()
        return frozenset(needs) | {s.action for s in self.state.steps if s.action}

    def _iterate(self, iteration: int, span: SpanHandle) -> None:
        state = self.state
        began = time.monotonic()
        turn = Turn(iteration=iteration, rows_in=count(state.rows))
        try:
            reply = self._plan(iteration, turn)
            settle()  # what planning freed, before the tool allocates
            self._act(reply, turn)
        except Stop as stop:
            if turn.action is None and turn.kind == "tool":  # the turn ended before any action was taken
                turn.stop(stop.message)
            raise
        finally:
            settle()
            turn.duration_ms = (time.monotonic() - began) * 1000
            turn.rows_out = count(state.rows)
            step = turn.step()
            state.steps.append(step)
            self.stats.iterations = iteration
            span.set(kind=step.kind, action=step.action or "", ok=step.ok, duration_ms=step.duration_ms,
                     planner=self.planner.name)
            if self.engine.on_step:
                self.engine.on_step(step)

    # -- planning -------------------------------------------------------------------------------------------

    def _plan(self, iteration: int, step: Turn) -> PlannerReply:
        state, settings = self.state, self.settings
        with self.tracer.span("context") as span:
            view = state.view(iteration, settings.max_iterations, settings.sample_lines,
                              brief=not self.planner.reads_prompt)
            advisor = self.engine.advisor
            if self.interpretation is None or self.planner.calls_model:
                interpretation = advisor.interpret(view) if advisor else _read(view)
                self.interpretation = self.interpretation or interpretation
                if self.planner.calls_model:  # the question notes: the same understanding, as hints for a model
                    suggestion = advisor.suggest(view) if advisor else None
                    view.notes, view.suggestion = interpretation.notes(suggestion), suggestion
                    self.suggested = suggestion
            request = self._request(view, step, span) if self.planner.reads_prompt else \
                PlanRequest(system="", prompt="", prompt_tokens=0, view=view)
        state.feedback = None
        request.time_left = settings.timeout_seconds - (time.monotonic() - self.started)
        reply = ask(self.planner, request, step, self.stats, self.tracer)
        self.warnings.extend(w for w in reply.warnings if w not in self.warnings)
        return reply

    def _request(self, view: ContextView, step: Turn, span: SpanHandle) -> PlanRequest:
        """The curated prompt for a planner that reads one, within its budget."""
        settings = self.settings
        tools = list(self._tools().values())
        budget = min(settings.max_prompt_tokens, self.planner.context_tokens or settings.max_prompt_tokens)
        system = self.planner.system_prompt
        prompt = build_prompt(view, tools, budget, history=settings.history_window,
                              samples=settings.sample_lines, sample_chars=settings.sample_chars,
                              wanted=self._wanted(), **({"system": system} if system else {}))
        span.set(prompt_tokens=prompt.tokens, trimmed=",".join(prompt.trimmed), budget=budget)
        span.event("prompt", system=prompt.system, text=prompt.text)
        step.prompt_tokens, step.trimmed = prompt.tokens, prompt.trimmed
        self.stats.prompt_tokens_max = max(self.stats.prompt_tokens_max, prompt.tokens)
        self.stats.prompt_tokens_total += prompt.tokens
        if not prompt.fits:
            raise Stop("insufficient_context", f"even the minimal prompt ({prompt.tokens} tokens) does not fit "
                                                f"the budget of {budget}: use a model with a larger num_ctx")
        schema = portable_reply_schema(tuple(prompt.tools)) if self.planner.uses_schema else None
        return PlanRequest(system=prompt.system, prompt=prompt.text, prompt_tokens=prompt.tokens, view=view,
                           tools=[t.name for t in prompt.tools], reply_schema=schema)

    # -- acting ---------------------------------------------------------------------------------------------

    def _act(self, reply: PlannerReply, step: Turn) -> None:
        state = self.state
        tools = self._tools()
        action = _offered(reply.action, tools) if reply.action is not None else read_action(reply.content, tools)
        if action.ignored:
            self.warnings.append(f"step {step.iteration}: the reply held {len(action.ignored) + 1} actions; took "
                                 f"its last and ignored {', '.join(action.ignored)}")
            step.ignored_actions = list(action.ignored)
        match action:
            case Invalid():
                step.action, step.params = action.action, action.params or {}
                self._invalid(reply.content, action.error, step, list(tools))
                return
            case Final():
                step.action, step.params = "finalize_answer", {"answer": action.answer, "value": action.value}
                step.reasoning = action.reasoning
                state.consecutive_invalid = 0
                self._finalize(action.answer, action.value, step)
                return
        tool, params = action.tool, action.params
        step.action, step.params, step.reasoning = tool.name, action.sent, action.reasoning
        state.consecutive_invalid = 0
        canonical = params.model_dump(mode="json")
        key = call_key(tool.name, canonical, state.rows_version)
        if key in state.calls:
            self._repeat(key, step)
            return
        approved, waited = consult(self.engine.approver, tool, params, step)  # (True, 0) when none is needed
        self.started += waited  # the run's clock stops while a person decides
        if not approved:
            self._deny(tool, step)
            return
        state.calls[key] = step.iteration
        self._run_tool(tool, params, canonical, step)

    def _invalid(self, text: str, exc: ReplyError, step: Turn, valid: list[str]) -> None:
        state = self.state
        state.consecutive_invalid += 1
        step.kind, step.ok, step.error = "invalid_reply", False, str(exc)
        self._count_error(f"reply:{exc.kind}")
        intent = self.settings.intent_detection_enabled and exc.kind in ("no_json", "empty") and \
            guidance.is_intent_only(text)
        state.feedback = guidance.NUDGE_ACT if intent else guidance.reask(exc, valid)
        if intent:
            step.kind = "nudge"
        if state.consecutive_invalid >= self.settings.max_json_parse_retries:
            raise Stop("error", f"the planner sent {state.consecutive_invalid} invalid replies in a row "
                                 f"(max_json_parse_retries={self.settings.max_json_parse_retries}); last: {exc}",
                        "ReplyError")

    def _repeat(self, key: CallKey, step: Turn) -> None:
        state = self.state
        state.repeats += 1
        first = state.calls[key]
        earlier = next(s for s in state.steps if s.iteration == first)
        step.kind, step.observation = "repeat", f"same as step {first}: {earlier.observation}"
        step.value, step.result = earlier.value, earlier.result if isinstance(earlier, ActionStep) else None
        # with a fallback planner waiting, a model that repeats a call has lost its way: the fallback answers
        # at once instead of after more calls that change nothing
        limit = 1 if self.engine.fallback is not None and self.planner is not self.engine.fallback else 3
        if state.repeats >= limit:
            raise Stop("tool_limit", guidance.repeats_stop(state.repeats))
        state.feedback = guidance.repeated(step.action or "", first, earlier.observation)

    def _deny(self, tool: Tool, step: Turn) -> None:
        state = self.state
        state.denials += 1
        step.kind, step.ok, step.error = "denied", False, f"{tool.name} was not approved by the user"
        if state.denials >= 2:
            raise Stop("approval_denied", f"{tool.name} needs approval: rerun with --yes or --approve {tool.name}")
        state.feedback = f"{tool.name} was denied by the user; do not call it again. Answer the question instead."

    def _run_tool(self, tool: Tool, params: Any, canonical: dict[str, Any], step: Turn) -> None:
        state, settings = self.state, self.settings
        # a tool that needs approval only gets here approved, for this very call shown with its path
        ctx = ToolContext(frame=state.frame, rows=state.rows, now=state.now, now_basis=state.now_basis, settings=settings,
                          entities=state.entities, output_dir=self.engine.output_dir,
                          allow_overwrite=tool.requires_approval and self.engine.approver.overwrite,
                          inputs=state.inputs, fields=lambda: state.vocabulary().fields, before=state.before,
                          catalog=lambda: state.vocabulary().catalog)
        remaining = settings.timeout_seconds - (time.monotonic() - self.started)
        limit = min(settings.tool_timeout_seconds, tool.timeout or settings.tool_timeout_seconds)
        if is_lazy(state.frame):  # on a Dask cluster a pass over big logs takes minutes: the run limit bounds it
            limit = remaining
        timeout = max(0.01, min(limit, remaining))
        shown = {"params": json_text(step.params)} if self.tracer.recording else {}
        with self.tracer.span("tool", tool=tool.name, rows_in=count(state.rows), **shown) as span:
            began = time.monotonic()
            try:
                result = tool.call(params, ctx, timeout)
            except ToolTimeoutError as exc:
                self.warnings.append(f"{tool.name} was abandoned after {timeout:g}s and may still be running "
                                     "until the process exits")
                self._tool_failed(tool, step, str(exc), "ToolTimeoutError")
            except ToolError as exc:
                self._tool_failed(tool, step, str(exc), "ToolError")
            except Exception as exc:  # a tool bug must not end the run
                self._tool_failed(tool, step, f"{tool.name} failed: {type(exc).__name__}: {exc}", type(exc).__name__)
            else:
                self._apply(tool, step, result, canonical)
            finally:
                step.tool_ms = (time.monotonic() - began) * 1000
                self.stats.tool_calls += 1
                self.stats.tool_duration_seconds += step.tool_ms / 1000
                span.set(rows_out=count(state.rows), duration_ms=step.tool_ms, ok=step.ok, error=step.error or "",
                         summary=step.observation)

    def _tool_failed(self, tool: Tool, step: Turn, message: str, kind: str) -> None:
        state = self.state
        step.ok, step.error = False, message
        self._count_error(f"tool:{kind}")
        failures = state.tool_failures.get(tool.name, 0) + 1
        state.tool_failures[tool.name] = failures
        if failures >= self.settings.max_tool_failures:
            state.disabled_tools.add(tool.name)
            message += f" ({tool.name} failed {failures} times in a row and is no longer available)"
        state.feedback = f"{tool.name} failed: {from_log(message)}"

    def _apply(self, tool: Tool, step: Turn, result: ToolResult, canonical: dict[str, Any]) -> None:
        state = self.state
        state.tool_failures[tool.name] = 0
        step.observation, step.value, step.result = result.summary, result.value.recorded(), result.value
        if result.entities:
            state.entities.update(result.entities)
        if result.rows is not None:
            state.set_rows(result.rows)
            if tool.narrows:
                self._narrowed(tool, step, result.rows, canonical)
        if result.evidence is not None:
            state.evidence = result.evidence
        if result.note:
            state.notes.append(result.note)
            step.observation += f" (note: {result.note})"
            state.feedback = " ".join(filter(None, (state.feedback, f"Note: {from_log(result.note)}.")))

    def _narrowed(self, tool: Tool, step: Turn, rows: Rows, canonical: dict[str, Any]) -> None:
        """Remember a filter's call (filters are idempotent: the same call again is a repeat); for a planner that
        reads the prompt, name it among the strategies tried, and hint at another when it kept no rows."""
        state = self.state
        state.calls.setdefault(call_key(tool.name, canonical, state.rows_version), step.iteration)
        if not self.planner.reads_prompt:
            return
        state.strategies_tried.append(f"{tool.name}({json_text(step.params)})")
        if count(rows) == 0 and self.settings.auto_retry_enabled:
            state.feedback = guidance.empty_hint(tool.name, step.params, self.settings.time_expansion_factor,
                                                 state.strategies_tried)

    def _finalize(self, answer: str, value: Any, step: Turn) -> None:
        state, settings = self.state, self.settings
        if len(answer) > settings.max_answer_chars:
            answer = cut(answer, settings.max_answer_chars)
            self.warnings.append(f"the answer was cut to {settings.max_answer_chars:,} characters (max_answer_chars)")
        step.kind, step.observation, step.value = "final", answer, value
        if (nudge := guidance.final_nudge(answer, value, state, settings, self.planner.deterministic)) is not None:
            step.kind, step.ok, state.feedback = "nudge", False, nudge
            return
        self.final = (answer, value)

    # -- the result -----------------------------------------------------------------------------------------

    def _expected(self) -> Any:
        """The value of the final answer suggested on the model's last turn: what the question's reading computes
        from the steps the model took (None when none was suggested)."""
        suggested = self.suggested
        return suggested[1].get("value") if suggested is not None and suggested[0] == "finalize_answer" else None

    def _count_error(self, kind: str) -> None:
        self.stats.errors_by_type[kind] = self.stats.errors_by_type.get(kind, 0) + 1

    def _finish(self, reason: StopReason, message: str | None = None, error_type: str | None = None) -> RunResult:
        state = self.state
        self.stats.execution_time_seconds = round(time.monotonic() - self.started, 4)
        self.stats.token_estimate_ratio = token_ratio(state.steps)
        if self.final is None:
            out = unfinished(state)
        else:
            narrowing = {n for n, t in self.engine.tools.items() if t.narrows}
            out = judged(state, self.final, self.interpretation, narrowing, self.settings,
                         self.started + self.settings.timeout_seconds, self._expected())
        self.warnings.extend(out.warnings)
        answer = out.answer or (f"No answer: {message}" if message else "No answer.")
        result = RunResult(
            query=self.question, answer=answer, value=out.value, verified=out.verified, partial=out.partial,
            stop_reason=reason, message=message, error_type=error_type,
            now=state.now.isoformat() if state.now is not None else None, steps=state.steps, statistics=self.stats,
            evidence=out.evidence, warnings=self.warnings,
            skipped=[f["path"] for f in attrs(state.frame).get("files", []) if not f.get("format")],
            interpretation=self.interpretation, planner=self.planner.name, model=self.planner.model,
        )
        result._rows = state.rows
        return result
