"""A statistic in the unit a question asks for ("in milliseconds", "in MB"): a field's values, read in seconds or
bytes (or in the one size unit its lines write), converted by the lexicon's factors, with the unit as an answer
writes it, so that the number the answer states is the one the tool computed."""

from __future__ import annotations

import pandas as pd

from react_engine.errors import ToolError
from react_engine.lexicon.measure_units import NAME_SUFFIX_UNITS, STATED_UNITS, UNITS_OF_MEASURE, Unit

_WRITTEN = {a: u for u in UNITS_OF_MEASURE for a in u.aliases}  # a unit as a field's values are in -> the unit
_KINDS = {"time": "a duration", "size": "a size"}
ASKABLE = ", ".join(dict.fromkeys(u.stated for u in STATED_UNITS.values()))
"""The units a value may be asked in, as answers write them."""


def in_unit(data: pd.DataFrame, unit: str, asked: str | None, name: str) -> tuple[pd.DataFrame, str]:
    """`data`'s values (in `unit`) in the unit `asked`, and that unit as an answer writes it; as they are when none
    is asked. A ToolError when the field `name` is in no unit, or in one of another kind ("MB" of a duration)."""
    if asked is None or not asked.strip():
        return data, unit
    wanted = STATED_UNITS.get(asked.strip().lower())
    if wanted is None:
        raise ToolError(f"unknown unit {asked!r}; a value may be given in {ASKABLE}")
    held = _held(unit, name)
    if held is None:
        raise ToolError(f"{name} is written without a unit, so it cannot be given in {wanted.stated}")
    if held.kind != wanted.kind:
        raise ToolError(f"{name} is {_KINDS[held.kind]} (in {unit}), so it cannot be given in {wanted.stated}, "
                        f"which measures {_KINDS[wanted.kind].removeprefix('a ')}s")
    out = data.assign(value=data["value"] * (held.factor / wanted.factor))
    out.attrs = dict(data.attrs)
    return out, wanted.stated


def _held(unit: str, name: str) -> Unit | None:
    """The unit a field's values are in: the one it was read in, else the one its name says (`latency_ms`, a
    column named `bytes`); None when neither says one."""
    lower = name.strip().lower()
    named = next((u for suffix, u in NAME_SUFFIX_UNITS if lower.endswith(suffix)), lower)
    return _WRITTEN.get(unit.lower()) or _WRITTEN.get(named.lower())
