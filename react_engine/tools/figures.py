"""The measuring tools' results, typed: a statistic, a rate, a statistic or share by group, a two-way table, a
share with both counts and a comparison (what `field_stats`, `share` and `compare` return)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_serializer, model_validator
from pydantic_core.core_schema import SerializerFunctionWrapHandler

from react_engine.tools.results import Number, Result, Table, optional


class Unmeasured(Result):
    """No current row has a value (or a time) to measure: `{"rows": 0}`."""

    rows: int


class _Keyed(Result):
    """A statistic recorded under its function's name (`{"p95": 812, ...}`), read back so too."""

    function: str
    value: Number

    @model_serializer(mode="wrap")
    def _keyed(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        return {data.pop("function"): data.pop("value"), **data}

    @model_validator(mode="before")
    @classmethod
    def _unkeyed(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "function" in data:
            return data
        named = {f.alias or n for n, f in cls.model_fields.items()}
        function = next((k for k in data if k not in named), None)
        if function is None:
            return data
        return {**{k: v for k, v in data.items() if k != function}, "function": function, "value": data[function]}


class Statistic(_Keyed):
    """A statistic of a field (or of the row count) over the current rows, with its unit and, for a pN function,
    the percentile it is."""

    rows: int
    unit: str
    percentile: float | None = optional()


class Rate(_Keyed):
    """A statistic of the rows counted per time bucket over every bucket of their span; for a maximum or minimum,
    the first bucket holding it (`at`)."""

    per: str
    bucket_seconds: Number
    buckets: int
    counted: int
    start: str = Field(alias="from")
    end: str = Field(alias="to")
    at: str | None = optional()
    unit: str
    percentile: float | None = optional()


class Grouped(Table):
    """A statistic or a share for each group (up to MAX_GROUPS rows listed of `groups`): its key columns, then the
    measure's; a rate by group also states the buckets it is over."""

    groups: int
    per: str | None = optional()
    bucket_seconds: Number | None = optional()
    buckets: int | None = optional()
    counted: int | None = optional()
    start: str | None = optional(alias="from")
    end: str | None = optional(alias="to")
    unit: str | None = optional()
    percentile: float | None = optional()


class Pivot(Table):
    """A statistic by two keys: the most frequent values of the first down, of the second across, each row's
    statistic over all its values in `total`; what is left out of each key (`left_out`) and, then, every cell
    (`cells`, None when too many to state)."""

    cells: dict[str, dict[str, Number]] | None = None
    left_out: dict[str, int] | None = None
    unit: str

    @model_serializer(mode="wrap")
    def _complete(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if self.left_out is None:
            del data["cells"], data["left_out"]
        return data


class ShareOf(Result):
    """The current rows as a percentage of the base rows, with both counts (no percentage of no rows)."""

    percent: Number | None = optional()
    rows: int
    of: int


class Compared(Result):
    """A measure in `a` against `b` (None over no rows), with the rows each covers, and when both are measured
    their difference, and against a non-zero `b` the change in percent and the ratio."""

    a: Number | None
    b: Number | None
    rows_a: int
    rows_b: int
    unit: str
    difference: Number | None = optional()
    percent_change: Number | None = optional()
    ratio: Number | None = optional()
