"""What the tools return, typed: each tool's result is one of these models (or of those in `figures`, `timed` and
`investigated`), and its `recorded()` JSON is the value a trace stores and the grounding check reads."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, JsonValue, RootModel

Scalar = str | int | float | bool | None  # a value of a column or entity, or a cell of a table
Number = int | float  # a count or statistic: integral values stay int (see `numeric.plain`)
Pair = tuple[Scalar, int]  # a value and how many rows hold it


def _none(value: object) -> bool:
    return value is None


def optional(**kwargs: Any) -> Any:
    """A field left out of the recorded value when it is None (a value a tool has only in some cases)."""
    return Field(None, exclude_if=_none, **kwargs)


_T = TypeVar("_T")


class Result(BaseModel):
    """Base of the tools' record results: unknown keys are refused, so a recorded value parses back into the one
    model that wrote it; `from` and `to` are spelled so in the record."""

    model_config = ConfigDict(frozen=True, ser_json_inf_nan="constants", defer_build=True, extra="forbid",
                              serialize_by_alias=True, populate_by_name=True)

    def recorded(self) -> JsonValue:
        """The JSON value a trace records (non-finite numbers kept as they are)."""
        return self.model_dump(mode="json")


class Recorded(RootModel[_T], Generic[_T]):
    """Base of the results that are one value (a count, a list): recorded as that value."""

    model_config = ConfigDict(frozen=True, ser_json_inf_nan="constants", defer_build=True)

    def recorded(self) -> JsonValue:
        """The JSON value a trace records (non-finite numbers kept as they are)."""
        return self.model_dump(mode="json")


class Counted(Recorded[int]):
    """How many rows (or distinct values) there are: a filter's kept rows, `get_log_count`, `count_entities`."""


class ValuesCounted(Recorded[int]):
    """`count_entities`: how many values of a field or entity type the current rows hold (distinct ones, unless
    every occurrence is asked for)."""


class Ranking(Recorded[list[Pair]]):
    """`top_values`: values with their row counts, in the order asked (most or fewest first)."""


class Histogram(Recorded[list[tuple[str, int]]]):
    """`count_by_time`: each bucket's start (ISO time) and its row count."""


class Lines(Recorded[list[str]]):
    """`show_logs`: the lines shown, each `source:line text`."""


class Stated(Recorded[JsonValue]):
    """`finalize_answer`: the value a planner's final answer rests on, as it gave it."""


class Exported(Result):
    """`export_results`: the file written, with the rows in it and its format."""

    path: str
    rows: int
    format: str


class EntityCounts(Result):
    """One entity set: its values found, how many distinct, and the most frequent three."""

    total: int
    unique: int
    top: list[Pair]


class Extracted(Recorded[dict[str, EntityCounts]]):
    """`extract_entities`: each entity set found, by its name."""


class Table(Result):
    """A result laid out as a table (see `answer.tables.result_table`): its columns and rows."""

    columns: list[str]
    rows: list[list[Scalar]]

    def column(self, name: str) -> int:
        """Where the column `name` is (a measure's), or 0 when the table has none so named."""
        return self.columns.index(name) if name in self.columns else 0


class DistinctRanking(Result):
    """`top_values` with `distinct`: values of `field` with how many distinct values of `distinct` their rows hold,
    most first (`order` desc) or fewest; `tied`: values past the cut with the same number as the last one listed
    (`tied_count` of them in all); `values`: how many values of `field` hold one."""

    field: str
    distinct: str
    order: str
    pairs: list[Pair]
    tied: list[Scalar] = Field(default_factory=list)
    tied_count: int = 0
    values: int


class NeverSeen(Result):
    """`never_seen`: how many distinct values of `field` the lines of one event hold that the lines of another never
    do (of `seen` distinct values in all), and the first ones by their first line."""

    field: str
    count: int
    seen: int
    values: list[Scalar]
