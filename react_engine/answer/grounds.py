"""What an answer may rest on: the numbers, shares, names and times a run's successful steps computed or used
(the grounding rule is stated in `react_engine.answer.check`)."""

from __future__ import annotations

import math
import re
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from react_engine.answer.names import Name, alternatives
from react_engine.answer.quantities import numbers_in
from react_engine.contract.record import ActionStep, Step

_NOTHING = re.compile(
    r"\b(?:no (?:matching |such |relevant )?(?:logs?|entries|lines|rows|records|results|events|matches|data)"
    r"|nothing (?:was )?found|not found|none (?:were )?found|could not find|couldn't find|did not find"
    r"|no .{0,40}\b(?:found|matched|match)|zero (?:logs?|entries|rows|results)"
    r"|(?:there|they) (?:were|are|was|is) no|^\s*(?:no|none)\b(?!,))\b",  # "No failed logins.", "None."
    re.I,
)
_QUOTED_ANY = re.compile(r'"[^"\n]*"|“[^”\n]*”|\'[^\'\n]*\'')
_SHARE_NAME = re.compile(r"percent|share", re.I)  # a value's key or column that holds percentages


def reports_nothing(answer: str, value: Any) -> bool:
    """The answer says nothing was found."""
    return value in (0, [], {}) or (value is None and bool(_NOTHING.search(answer or "")))


def found_something(value: Any) -> bool:
    """A tool value that found something: a non-zero number in it, or a non-empty list."""
    return any(n != 0 for n in computed_numbers(value)) or (isinstance(value, (list, tuple)) and len(value) > 0)


def leaves(value: Any, *, keys: bool = False) -> Iterable[Any]:
    """The scalars in a tool value, depth first (with the keys of its dicts when `keys`)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed([x for k, v in item.items() for x in ((k, v) if keys else (v,))]))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        else:
            yield item


def computed_numbers(value: Any) -> Iterable[float]:
    """The numbers a tool value computed: its finite JSON numbers (never the digits in its text)."""
    for leaf in leaves(value):
        if isinstance(leaf, (int, float)) and not isinstance(leaf, bool) and math.isfinite(leaf):
            yield float(leaf)


def computed_shares(value: Any) -> Iterable[float]:
    """The percentages a tool value computed: the numbers under a key, or in a table's column, named for a share
    or a percentage (`{"percent": 12.5}`, a `share` column, `percent_change`)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            yield from computed_numbers(_share_cells(item))
            for key, inner in item.items():
                if isinstance(key, str) and _SHARE_NAME.search(key):
                    yield from computed_numbers(inner)
                else:
                    stack.append(inner)


def _share_cells(table: dict[Any, Any]) -> list[Any]:
    """The cells of a table's share or percentage columns (none for a value of another shape)."""
    columns, rows = table.get("columns"), table.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return []
    at = [i for i, c in enumerate(columns) if isinstance(c, str) and _SHARE_NAME.search(c)]
    return [row[i] for row in rows if isinstance(row, list) for i in at if i < len(row)]


def texts_of(value: Any) -> Iterable[str]:
    return (leaf for leaf in leaves(value, keys=True) if isinstance(leaf, str))


@dataclass
class Grounds:
    """What a run's steps let an answer state: `values` (the tool values and row counts), `names` (the texts of
    those values, each with the field it is a value of, and the phrases of the filters that shape the current
    rows) and `times` (texts whose times an answer may repeat: those filters' parameters and summaries)."""

    values: list[Any] = field(default_factory=list)
    names: list[Name] = field(default_factory=list)
    times: list[str] = field(default_factory=list)


def grounds(steps: Sequence[Step], narrowing: Container[str], notes: Iterable[str] = ()) -> Grounds:
    """The grounds of the successful tool steps. A filter (a tool in `narrowing`) shapes the rows from its step
    until a later step widens them again (reset_filters, an empty search). A tool's `notes` state numbers it
    computed ("only 63 distinct user values exist"); what they quote is a name."""
    found = Grounds()
    found.values += [numbers_in(_QUOTED_ANY.sub(" ", note)) for note in notes]
    done = [step for step in steps if isinstance(step, ActionStep) and step.kind == "tool" and step.ok]
    for step in done:
        _add_value(found, step)
    for step in _shaping(done, narrowing):
        _add_filter(found, step)
    return found


def _shaping(steps: list[ActionStep], narrowing: Container[str]) -> list[ActionStep]:
    """The filters that shape the rows the last step left: those since the last step that widened them."""
    active: list[ActionStep] = []
    for step in steps:
        rows_in, rows_out = step.rows_in, step.rows_out
        if rows_in is not None and rows_out is not None and rows_out > rows_in:
            active = []
        if step.action in narrowing and rows_out is not None and (rows_in is None or rows_out <= rows_in):
            active.append(step)
    return active


def _add_value(found: Grounds, step: ActionStep) -> None:
    """A tool's value and the rows it left are computed; the texts of its value are names of the field asked."""
    found.values.append(step.value)
    if step.rows_out is not None:
        found.values.append(step.rows_out)
    label = next((v for k in ("field", "type", "key") if isinstance(v := step.params.get(k), str)), "")
    found.names += [Name(text, label) for text in texts_of(step.value)]


def _add_filter(found: Grounds, step: ActionStep) -> None:
    """A filter that shapes the rows: its phrases are names (each way of writing them), its parameters and
    summary times."""
    label = str(step.params.get("field") or "")
    phrases = [str(p) for p in leaves(step.params) if isinstance(p, (str, int, float)) and not isinstance(p, bool)]
    found.names += [Name(alt, label, phrase=True) for p in phrases for alt in alternatives(p)]
    found.times += [*phrases, step.observation]
