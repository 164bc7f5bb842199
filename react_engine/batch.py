"""Batch runs: many questions, logs loaded once, one flushed JSON line per result, resumable, transport retries."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from react_engine.engine import Engine
from react_engine.errors import InputError
from react_engine.frames import FrameCache, PathList
from react_engine.result import RunResult
from react_engine.stops import should_retry, summary_hints


def question_id(question: str) -> str:
    """The default id of a question: a stable hash of its text."""
    return "q-" + hashlib.sha256(question.strip().encode("utf-8")).hexdigest()[:12]


class BatchItem(BaseModel):
    """One question of a batch; `logs` empty means the batch's `--logs`."""

    model_config = ConfigDict(extra="forbid")

    id: str = ""
    question: str = Field(min_length=1)
    logs: PathList = Field(default_factory=list)

    @field_validator("id", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) else value



def _entries(path: Path, text: str) -> list[Any]:
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    if suffix in (".yaml", ".yml", ".json"):
        data = yaml.safe_load(text) or []
        data = data.get("questions", data) if isinstance(data, dict) else data
        if not isinstance(data, list):
            raise ValueError("expected a list of questions")
        return data
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def load_queries(path: str | Path) -> list[BatchItem]:
    """Questions from a text file (one per line), JSONL or YAML; item `logs` are relative to the file."""
    path = Path(path)
    try:
        entries = _entries(path, path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: queries file not found: give a text, JSONL or YAML file of questions") from None
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        reason = str(exc).splitlines()[0]
        raise InputError(f"{path}: cannot read the questions ({reason}): fix the file") from None
    items: list[BatchItem] = []
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, 1):
        try:
            item = BatchItem.model_validate({"question": entry} if isinstance(entry, str) else entry)
        except ValidationError as exc:
            problem = exc.errors()[0]
            raise InputError(f"{path}: question {number}: {'.'.join(map(str, problem['loc']))}: {problem['msg']}: "
                             "give `question` and optionally `id` and `logs`") from None
        item.id = item.id or question_id(item.question)
        item.logs = [str(path.parent / p) for p in item.logs]
        if item.id in seen:
            raise InputError(f"{path}: questions {seen[item.id]} and {number} have the same id {item.id!r}: "
                             "remove the duplicate or give each its own id")
        seen[item.id] = number
        items.append(item)
    return items


def answered_ids(out: Path) -> set[str]:
    """Ids already in `out`; a partial last line (a crash mid-write) is cut off so appending stays valid."""
    if not out.exists():
        return set()
    data = out.read_bytes()
    if data and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
        with out.open("r+b") as handle:
            handle.truncate(len(data))
    ids = set()
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        try:
            ids.add(json.loads(line)["id"])
        except (ValueError, KeyError, TypeError):
            raise InputError(f"{out}: line {number} is not a batch result: pass a new --out file") from None
    return ids


class BatchSummary(BaseModel):
    """What a batch did."""

    out: str
    total: int
    skipped: int = 0  # already answered in `out` before this run
    written: int = 0
    retried: int = 0
    interrupted: bool = False
    counts: dict[str, int] = Field(default_factory=dict)  # stop_reason -> results written by this run
    error_types: dict[str, int] = Field(default_factory=dict)  # error_type -> results with stop_reason error

    @property
    def remaining(self) -> int:
        return self.total - self.skipped - self.written

    @property
    def hints(self) -> list[str]:
        return summary_hints(self.counts, self.error_types)


OnResult = Callable[[BatchItem, RunResult, BatchSummary], None]


def _ask(engine: Engine, question: str, paths: list[str], frames: FrameCache, now: str | None, retries: int,
         backoff: float, sleep: Callable[[float], None]) -> tuple[RunResult, int]:
    """One question, retried per the stop-reason matrix; returns the result and how many retries it took."""
    attempt = 0
    while True:
        result = engine.ask(question, paths, frame=frames.get(paths), now=now, load_options=frames.options)
        if attempt == retries or not should_retry(result):
            return result, attempt
        sleep(backoff * 2**attempt)
        attempt += 1


def run_batch(engine: Engine, items: Sequence[BatchItem], out: str | Path, *, logs: Sequence[str | Path] = (),
              frames: FrameCache | None = None, now: str | None = None, retries: int = 2, backoff: float = 1.0,
              on_result: OnResult | None = None, sleep: Callable[[float], None] = time.sleep) -> BatchSummary:
    """Answer every item not yet in `out`, appending one flushed JSON line (the result plus `id`) per answer.

    A transport error is retried up to `retries` times, waiting `backoff`·2^attempt seconds. Ctrl-C stops the
    batch without writing the interrupted question, so a rerun with the same `out` resumes there.
    """
    if not logs and (orphan := next((item for item in items if not item.logs), None)):
        raise InputError(f"question {orphan.id!r} has no logs: pass --logs PATH or give `logs` in the file")
    out = Path(out)
    frames = frames or FrameCache()
    done = answered_ids(out)
    summary = BatchSummary(out=str(out), total=len(items), skipped=sum(item.id in done for item in items))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        handle = out.open("a", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{out}: cannot write results ({exc.strerror or exc}): pass --out in a writable place") \
            from None
    with handle:
        try:
            for item in (i for i in items if i.id not in done):
                paths = item.logs or [str(p) for p in logs]
                result, retried = _ask(engine, item.question, paths, frames, now, retries, backoff, sleep)
                summary.retried += retried
                if result.stop_reason == "interrupted":
                    summary.interrupted = True
                    break
                handle.write(json.dumps({"id": item.id, **result.model_dump(mode="json")}, ensure_ascii=False) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
                summary.written += 1
                summary.counts[result.stop_reason] = summary.counts.get(result.stop_reason, 0) + 1
                if result.error_type:
                    summary.error_types[result.error_type] = summary.error_types.get(result.error_type, 0) + 1
                if on_result:
                    on_result(item, result, summary)
        except KeyboardInterrupt:
            summary.interrupted = True
    return summary
