"""Batch runs: many questions, logs loaded once, one flushed JSON line per result, resumable, transport retries."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from react_engine.app.roots import outside
from react_engine.contract.planner import RetryRecord
from react_engine.contract.record import RunResult
from react_engine.errors import InputError, PlannerError
from react_engine.loop.engine import Engine
from react_engine.loop.frames import FrameCache, PathList
from react_engine.loop.outcome import unloaded
from react_engine.loop.stops import Stop, should_retry, summary_hints
from react_engine.planners.retry import RetryPolicy


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



def _jsonl(text: str) -> list[tuple[int, Any]]:
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                entries.append((number, json.loads(line)))
            except ValueError as exc:
                raise ValueError(f"line {number} is not JSON ({exc.args[0].split(':')[0]})") from None
    return entries


def _entries(name: str, text: str) -> list[tuple[int, Any]]:
    """`(line or position, entry)` pairs: lines for text and JSONL (blank lines count), positions for YAML/JSON."""
    suffix = Path(name).suffix.lower()
    first = next((line.lstrip() for line in text.splitlines() if line.strip()), "")
    if suffix in (".jsonl", ".ndjson") or (name == "-" and first.startswith("{")):
        return _jsonl(text)
    if suffix in (".yaml", ".yml", ".json"):
        return _listed(text)
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


def _listed(text: str) -> list[tuple[int, Any]]:
    """The entries of a YAML or JSON list of questions (or of its `questions` key), by position."""
    data = yaml.safe_load(text) or []
    data = data.get("questions", data) if isinstance(data, dict) else data
    if not isinstance(data, list):
        raise ValueError("expected a list of questions")
    return list(enumerate(data, 1))


def _read_queries(path: Path) -> str:
    return sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")


def load_queries(path: str | Path) -> list[BatchItem]:
    """Questions from a text file (one per line), JSONL or YAML, or `-` for stdin; item `logs` are relative to the file."""
    path = Path(path)
    line_based = path.suffix.lower() not in (".yaml", ".yml", ".json")
    try:
        entries = _entries(str(path), _read_queries(path))
    except FileNotFoundError:
        raise InputError(f"{path}: queries file not found: give a text, JSONL or YAML file of questions") from None
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        reason = str(exc).splitlines()[0]
        raise InputError(f"{path}: cannot read the questions ({reason}): fix the file") from None
    items: list[BatchItem] = []
    seen: dict[str, int] = {}
    where = "line" if line_based else "question"
    for number, entry in entries:
        item = _item(entry, path, f"{where} {number}")
        if item.id in seen:
            raise InputError(f"{path}: {where}s {seen[item.id]} and {number} have the same id {item.id!r}: "
                             "remove the duplicate or give each its own id")
        seen[item.id] = number
        items.append(item)
    return items


def _item(entry: Any, path: Path, where: str) -> BatchItem:
    """One entry of the questions file at `path` as an item: its id given or derived, its logs relative to the
    file."""
    try:
        item = BatchItem.model_validate({"question": entry} if isinstance(entry, str) else entry)
    except ValidationError as exc:
        problem = exc.errors()[0]
        field = ".".join(map(str, problem["loc"])) or "entry"
        raise InputError(f"{path}: {where}: {field}: {problem['msg']}: "
                         "give `question` and optionally `id` and `logs`") from None
    item.id = item.id or question_id(item.question)
    item.logs = [str(path.parent / p) for p in item.logs]
    return item


def answered_ids(out: Path) -> set[str]:
    """Ids already in `out`; a partial last line (a crash mid-write) is cut off so appending stays valid."""
    if not out.is_file():
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
    answered: int = 0  # stopped with a tool result behind the answer
    refused: int = 0  # stopped without one: the planner declined or could not map the question
    partial: int = 0  # stopped with an answer to part of the question only
    retried: int = 0
    interrupted: bool = False
    counts: dict[str, int] = Field(default_factory=dict)  # stop_reason -> results written by this run
    error_types: dict[str, int] = Field(default_factory=dict)  # error_type -> results with stop_reason error

    @property
    def remaining(self) -> int:
        return self.total - self.skipped - self.written

    @property
    def outcomes(self) -> dict[str, int]:
        """Results written by this run: answered, partial (part of the question answered), refused (a `stop` with
        no answer behind it), other stops."""
        others = {reason: n for reason, n in sorted(self.counts.items()) if reason != "stop"}
        partial = {"partial": self.partial} if self.partial else {}
        return {"answered": self.answered} | partial | {"refused": self.refused} | others

    @property
    def hints(self) -> list[str]:
        return summary_hints(self.counts, self.error_types)

    def add(self, result: RunResult) -> None:
        """Count one written result."""
        self.written += 1
        self.counts[result.stop_reason] = self.counts.get(result.stop_reason, 0) + 1
        self.answered += result.answered
        self.partial += result.stop_reason == "stop" and result.partial
        self.refused += result.refused
        if result.error_type:
            self.error_types[result.error_type] = self.error_types.get(result.error_type, 0) + 1


OnResult = Callable[[BatchItem, RunResult, BatchSummary], None]


def _refused(engine: Engine, item: BatchItem, path: str, roots: Sequence[Path]) -> RunResult:
    folders = ", ".join(str(root) for root in roots)
    stop = Stop("error", f"{path}: outside the folders a batch file may read logs from ({folders}); move the logs "
                         "there, or allow their folder with --allow-logs DIR", "InputError")
    return unloaded(item.question, time.monotonic(), engine.planner, stop)


class _TransportFailure(PlannerError):
    """A run that ended in a transport error, raised so that `RetryPolicy` repeats it."""

    retryable = True

    def __init__(self, result: RunResult) -> None:
        super().__init__(result.message or result.error_type or "transport error")
        self.result = result


def _ask(engine: Engine, question: str, paths: list[str], frames: FrameCache, now: str | None,
         policy: RetryPolicy, sleep: Callable[[float], None]) -> tuple[RunResult, int]:
    """One question, retried per the stop-reason matrix; returns the result and how many retries it took."""

    def attempt() -> RunResult:
        result = engine.ask(question, paths, frame=frames.get(paths), now=now, load_options=frames.options)
        if should_retry(result):
            raise _TransportFailure(result)
        return result

    records: list[RetryRecord] = []
    try:
        return policy.call(attempt, records, sleep), len(records)
    except _TransportFailure as failure:
        return failure.result, len(records)


@contextmanager
def _results_file(out: Path) -> Iterator[tuple[BinaryIO, set[str]]]:
    """`out` opened for appending (unbuffered) under an exclusive lock, with the ids already in it; `-` is stdout."""
    if str(out) == "-":
        yield sys.stdout.buffer, set()
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        handle = out.open("ab", buffering=0)
    except OSError as exc:
        raise InputError(f"{out}: cannot write results ({exc.strerror or exc}): pass --out in a writable place") \
            from None
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise InputError(f"{out}: another batch is writing to it: wait for it to finish or pass another --out") \
                from None
        yield handle, answered_ids(out)


def _write(handle: BinaryIO, out: Path, line: str) -> None:
    """Append one line and make it durable; a full disk is a one-line error (the batch resumes when rerun)."""
    try:
        handle.write(line.encode("utf-8"))
        handle.flush()
        if str(out) != "-" and out.is_file():
            os.fsync(handle.fileno())
    except OSError as exc:
        raise InputError(f"{out}: cannot write results ({exc.strerror or exc}): free some space or pass another "
                         "--out, then rerun to resume") from None


def run_batch(engine: Engine, items: Sequence[BatchItem], out: str | Path, *, logs: Sequence[str | Path] = (),
              frames: FrameCache | None = None, now: str | None = None, retries: int = 2, backoff: float = 1.0,
              on_result: OnResult | None = None, sleep: Callable[[float], None] = time.sleep,
              allowed: Sequence[Path] | None = None) -> BatchSummary:
    """Answer every item not yet in `out`, appending one flushed JSON line (the result plus `id`) per answer.

    `out` is locked while the batch runs, so two batches never write the same results; `-` writes to stdout.
    A transport error is retried up to `retries` times with `RetryPolicy`'s backoff, starting at `backoff`
    seconds. Ctrl-C stops the batch without writing the interrupted question, so a rerun with the same `out`
    resumes there. With `allowed`, an item's own `logs` must lie under those folders: one that reads anything
    outside them is refused (an `error` result naming the path), and the batch goes on.
    """
    if not logs and (orphan := next((item for item in items if not item.logs), None)):
        raise InputError(f"question {orphan.id!r} has no logs: pass --logs PATH or give `logs` in the file")
    out = Path(out)
    policy = RetryPolicy(max_attempts=retries + 1, initial_delay=backoff, max_delay=max(8.0, backoff))
    answer = _Answering(engine, logs, frames or FrameCache(), now, policy, sleep, allowed)
    with _results_file(out) as (handle, done):
        summary = BatchSummary(out=str(out), total=len(items), skipped=sum(item.id in done for item in items))
        try:
            _answer_all([i for i in items if i.id not in done], answer, summary, handle, out, on_result)
        except KeyboardInterrupt:
            summary.interrupted = True
    return summary


@dataclass(frozen=True)
class _Answering:
    """How a batch answers one item: from its own logs (refused outside the `allowed` folders) or the batch's."""

    engine: Engine
    logs: Sequence[str | Path]
    frames: FrameCache
    now: str | None
    policy: RetryPolicy
    sleep: Callable[[float], None]
    allowed: Sequence[Path] | None

    def __call__(self, item: BatchItem) -> tuple[RunResult, int]:
        """The item's result and how many retries it took."""
        away = outside(item.logs, self.allowed) if self.allowed is not None and item.logs else None
        if away is not None:
            return _refused(self.engine, item, away, self.allowed or []), 0
        paths = item.logs or [str(p) for p in self.logs]
        return _ask(self.engine, item.question, paths, self.frames, self.now, self.policy, self.sleep)


def _answer_all(pending: list[BatchItem], answer: _Answering, summary: BatchSummary, handle: BinaryIO, out: Path,
                on_result: OnResult | None) -> None:
    """Answer the items in turn, writing and counting each result; an interrupted one stops the batch unwritten."""
    for item in pending:
        result, retried = answer(item)
        summary.retried += retried
        if result.stop_reason == "interrupted":
            summary.interrupted = True
            return
        _write(handle, out, json.dumps({"id": item.id, **result.model_dump(mode="json")}, ensure_ascii=False) + "\n")
        summary.add(result)
        if on_result:
            on_result(item, result, summary)
