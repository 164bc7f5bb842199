"""How results look at a terminal."""

from __future__ import annotations

import json

from react_engine.result import RunResult, Step


def _ms(value: float) -> str:
    return f"{value:,.0f} ms" if value >= 1 else f"{value:.2f} ms"


def step_line(step: Step) -> str:
    """One live line per iteration for `-v`: action, params, summary, ms and tokens."""
    params = json.dumps(step.params, ensure_ascii=False, default=str)
    what = step.observation if step.ok else f"ERROR {step.error}"
    seen = step.usage.prompt_tokens
    tokens = f"{step.prompt_tokens} tok" + (f" (model saw {seen})" if seen else "")
    action = step.action or f"<{step.kind}>"
    return f"[{step.iteration}] {action}({params}) → {what}  · {_ms(step.duration_ms)} · {tokens}"


def human(result: RunResult, hint: str | None) -> str:
    """The answer, a verified mark, evidence lines and a footer."""
    lines = [result.answer]
    if result.stop_reason == "stop":
        lines.append("✓ verified: every number was computed by a tool" if result.verified
                     else "⚠ unverified: see the warnings below")
    elif result.partial:
        lines.append("⚠ partial and unverified")
    if result.evidence:
        lines.append("evidence:")
        lines.extend(f"  {e.source}:{e.line} {e.text}" for e in result.evidence)
    lines.extend(f"warning: {w}" for w in result.warnings)
    s = result.statistics
    footer = (f"— {result.stop_reason} · {s.iterations} steps · {s.llm_calls} model calls · "
              f"{s.execution_time_seconds:.2f}s · planner {result.planner}"
              + (f" ({result.model})" if result.model else "")
              + (f" · now={result.now}" if result.now else ""))
    lines.append(footer)
    if hint and hint not in result.answer:
        lines.append(hint)
    return "\n".join(lines)
