"""Evaluation suites: cases with a question, logs and expectations, loaded from YAML or JSON.

Expected values may be written literally or taken from a ground-truth JSON file by key path (`value_from:
sets.cmts.rows`), so a suite follows the sample generator. `set: NAME` takes a case's logs from the ground
truth's `sets.NAME.paths`. Paths are relative to the suite file (ground-truth paths to the ground-truth file).
A case may name its phrasing `class` (terse, typo, ...) for per-class accuracy, and paths it `requires`: when
one is absent (logs shared outside the repository), the case is skipped and reported as skipped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from react_engine.contract.record import StopReason
from react_engine.errors import InputError
from react_engine.loop.frames import PathList


class Expect(BaseModel):
    """What a correct run looks like; every field is optional."""

    model_config = ConfigDict(extra="forbid")

    value: Any = None  # checked only when given (or taken from `value_from`)
    value_from: str | None = None
    tolerance: float = Field(0.0, ge=0)  # how far a number may be from the expected one
    rel_tolerance: float = Field(0.0, ge=0, lt=1)  # the same, as a fraction of the expected number
    contains: list[str] = Field(default_factory=list)  # substrings of the answer, case-insensitive
    contains_from: list[str] = Field(default_factory=list)
    top: list[Any] | None = None  # the answer's ranking starts with these values (or [value, count] pairs)
    top_from: str | None = None
    top_n: int = Field(3, ge=1)
    tools: list[str] = Field(default_factory=list)  # tools that must be called
    stop_reason: StopReason | None = None
    no_data: bool = False  # a normal stop that reports nothing found (value 0 or empty)
    unserved: bool = False  # an intent the engine cannot serve yet: right only as a partial answer or a refusal

    @property
    def checks_value(self) -> bool:
        return "value" in self.model_fields_set

    @property
    def checks_answer(self) -> bool:
        return self.checks_value or bool(self.contains) or self.top is not None

    @property
    def checks_errors(self) -> bool:
        return self.no_data or self.unserved or self.stop_reason is not None


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)

    id: str
    question: str
    phrasing: str | None = Field(None, alias="class")  # how the question is written: terse, typo, ranking, ...
    requires: list[str] = Field(default_factory=list)  # paths that must exist, or the case is skipped
    logs: PathList = Field(default_factory=list)
    set: str | None = None  # a ground-truth sample set, instead of `logs`
    now: str | None = None
    expect: Expect = Field(default_factory=Expect)

    @model_validator(mode="after")
    def _has_logs(self) -> Case:
        if not self.logs and not self.set:
            raise ValueError("give `logs` or `set`")
        return self

    @property
    def missing(self) -> list[str]:
        """Required paths that are absent here."""
        return [p for p in self.requires if not os.path.exists(p)]


class Suite(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = "suite"
    description: str = ""
    ground_truth: str | None = None
    year: int | None = None  # for logs whose lines carry no year
    cases: list[Case]
    path: str | None = Field(None, exclude=True)


def _lookup(truth: dict[str, Any], key: str) -> Any:
    node: Any = truth
    for part in key.split("."):
        if isinstance(node, list) and part.isdigit():
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise KeyError(key)
    return node


def _resolve(case: Case, base: Path, truth: dict[str, Any], truth_dir: Path) -> Case:
    """The case with literal logs and expectations."""
    logs = [os.path.normpath(base / p) for p in case.logs]
    requires = [os.path.normpath(base / p) for p in case.requires]
    if case.set:
        logs += [os.path.normpath(truth_dir / p) for p in _lookup(truth, f"sets.{case.set}.paths")]
    expect = case.expect.model_dump(exclude_unset=True)
    if case.expect.value_from:
        expect["value"] = _lookup(truth, case.expect.value_from)
    expect["contains"] = case.expect.contains + [str(_lookup(truth, k)) for k in case.expect.contains_from]
    if case.expect.top_from:
        ranked = _lookup(truth, case.expect.top_from)
        if isinstance(ranked, dict):  # {value: count} -> [[value, count]] by count, then value
            ranked = sorted(([k, v] for k, v in ranked.items()), key=lambda kv: (-kv[1], kv[0]))
        expect["top"] = ranked[: case.expect.top_n]
    return case.model_copy(update={"logs": logs, "requires": requires, "set": None,
                                   "expect": Expect.model_validate(expect)})


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when built with it: 6x faster


def load_suite(path: str | Path) -> Suite:
    """Read and resolve a suite; any problem is an `InputError` naming the file and the case."""
    path = Path(path)
    try:
        suite = Suite.model_validate(yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER))
    except FileNotFoundError:
        raise InputError(f"{path}: suite not found: give a YAML or JSON suite file") from None
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(map(str, problem["loc"]))
        raise InputError(f"{path}: not a valid suite: {where}: {problem['msg']}: fix the file") from None
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"{path}: not a valid suite: {str(exc).splitlines()[0]}: fix the file") from None
    truth: dict[str, Any] = {}
    truth_dir = path.parent
    if suite.ground_truth:
        truth_path = path.parent / suite.ground_truth
        truth_dir = truth_path.parent
        try:
            truth = json.loads(truth_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{truth_path}: cannot read the ground truth ({exc}): generate it with "
                             "scripts/generate_sample_logs.py") from None
    cases, seen = [], set()
    for case in suite.cases:
        if case.id in seen:
            raise InputError(f"{path}: case id {case.id!r} appears twice: give each case its own id")
        seen.add(case.id)
        try:
            cases.append(_resolve(case, path.parent, truth, truth_dir))
        except (KeyError, IndexError, TypeError) as exc:
            raise InputError(f"{path}: case {case.id!r}: no ground-truth key {exc}: fix the key path") from None
    return suite.model_copy(update={"cases": cases, "path": str(path)})
