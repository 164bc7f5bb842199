"""How results look: text (answer, mark, chart or table, evidence), a table, CSV, or JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from react_engine.answer.tables import ResultTable, result_table
from react_engine.app.cli.chart import chart
from react_engine.app.cli.terminal import error, note, out, out_json
from react_engine.contract.record import RunResult, Step
from react_engine.loop.stops import explain

OUTPUTS = ("text", "json", "csv", "table")


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


def _cell(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return "" if value is None else " ".join(str(value).split())


def table_text(table: ResultTable) -> str:
    """Aligned columns under an upper-case header (numbers right-aligned), then what was left out."""
    cells = [[_cell(v) for v in row] for row in table.rows]
    numeric = _numeric(table)
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(table.columns)]
    lines = [_aligned(values, widths, numeric) for values in ([c.upper() for c in table.columns], *cells)]
    lines += [f"({text})" for text in (table.disclosure, table.note) if text]
    return "\n".join(lines)


def _numeric(table: ResultTable) -> list[bool]:
    """Whether each column holds only numbers."""
    return [all(isinstance(row[i], (int, float)) and not isinstance(row[i], bool) for row in table.rows)
            for i in range(len(table.columns))]


def _aligned(values: list[str], widths: list[int], numeric: list[bool]) -> str:
    """One line of the table: numbers right-aligned, the rest left-aligned, to the columns' widths."""
    return "  ".join(v.rjust(w) if n else v.ljust(w) for v, w, n in zip(values, widths, numeric)).rstrip()


def csv_text(table: ResultTable) -> str:
    """The rows as CSV with a header line."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows([["" if v is None else v for v in row] for row in table.rows])
    return buffer.getvalue().rstrip("\n")


def footer(result: RunResult) -> str:
    """Stop reason, steps, model calls, time, planner and time anchor on one line."""
    s = result.statistics
    return (f"— {result.stop_reason} · {s.iterations} steps · {s.llm_calls} model calls · "
            f"{s.execution_time_seconds:.2f}s · planner {result.planner}"
            + (f" ({result.model})" if result.model else "")
            + (f" · now={result.now}" if result.now else ""))


def _has_answer(result: RunResult) -> bool:
    return result.stop_reason == "stop" or result.partial


def human(result: RunResult) -> str:
    """The answer, a verified mark, the chart or table behind it, and the evidence lines."""
    lines = [result.answer]
    if result.partial:
        lines.append("⚠ partial and unverified")
    elif result.stop_reason == "stop":
        lines.append(("✓ verified: every number was computed by a tool" if result.verified
                      else "⚠ unverified: see the warnings") + _skipped(result))
    table = result_table(result)
    if table is not None:
        lines += _table_lines(table)
    if result.evidence:
        lines.append("evidence:")
        lines.extend(f"  {e.source}:{e.line} {e.text}" for e in result.evidence)
    return "\n".join(lines)


def _table_lines(table: ResultTable) -> list[str]:
    """The chart or table behind an answer: a histogram as bars, a timeline as dated lines, a ranking or table."""
    if table.kind == "histogram" and table.rows:
        return [chart(table.rows)] + [f"({table.note})"] * bool(table.note)
    if table.kind == "table" and table.columns[:1] == ["time"]:
        return [" ".join(_cell(v) for v in row) for row in table.rows]
    if table.kind in ("ranking", "table") and table.rows:
        return [table_text(table)]
    return []


def _skipped(result: RunResult) -> str:
    """What the verified mark must say about inputs the answer does not cover."""
    if not result.skipped:
        return ""
    names = ", ".join(result.skipped[:3]) + (f" and {len(result.skipped) - 3:,} more" if len(result.skipped) > 3 else "")
    return f", over the files read ({names} skipped as binary)"


def present(result: RunResult, output: str) -> None:
    """Print `result` as `output` asks: the result on stdout; warnings, footer and errors on stderr."""
    if output == "json":
        out_json(result.model_dump_json(indent=2))
    elif _has_answer(result):
        table = result_table(result)
        if output == "text":
            out(human(result))
        elif table is None:  # no rows behind the answer: stdout stays a table or CSV (here: empty)
            note(human(result))
        elif output == "table":
            out(table_text(table))
        else:
            out(csv_text(table))
            for text in (table.disclosure, table.note):
                if text:
                    note(text)
    _tell(result, output)


def _tell(result: RunResult, output: str) -> None:
    """The warnings, footer, error and hint of `result` on stderr."""
    early = failed_early(result)
    if output != "json":
        for warning in result.warnings:
            note(f"warning: {warning}")
        if not early:
            note(footer(result))
    hint = explain(result)
    problem = _problem(result, hint)
    if not result.answered:
        error(problem)
    if hint and not early and not hint.endswith(problem) and output != "json":
        note(hint)


def failed_early(result: RunResult) -> bool:
    """Whether `result` ended, before any tool ran, on what its message says in full (logs that cannot be read or
    read in time, a model that cannot be had): that one error line is all it prints, with no footer, hint or
    notice from before the run."""
    return (result.stop_reason in ("error", "time_limit") and bool(result.message)
            and not any(s.kind == "tool" for s in result.steps))


def _problem(result: RunResult, hint: str | None) -> str:
    """Why `result` is not an answer, in one line."""
    if not _has_answer(result):
        return " ".join((result.message or result.answer).split())
    if result.partial:
        return "not answered: only part of the question was answered" if result.stop_reason == "stop" else \
            f"not answered ({result.stop_reason}): only a partial result"
    reason = next((w for w in result.warnings if w.startswith("unverified")), "no tool result behind the answer")
    return f"not answered: {hint or reason}"
