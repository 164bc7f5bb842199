"""Loading a question's logs into a run's state, and loaded frames shared by many questions (batch, eval): each
distinct set of paths is loaded once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import pandas as pd
from pydantic import BeforeValidator

from react_engine.errors import ReactEngineError, TimeLimitError, ToolError
from react_engine.logs.options import LoadOptions
from react_engine.loop.anchor import anchor
from react_engine.loop.state import RunState
from react_engine.loop.stops import Stop
from react_engine.rows.rowops import attrs

# Log paths as written in a question or suite file: one path or a list of them.
PathList = Annotated[list[str], BeforeValidator(lambda value: [value] if isinstance(value, str) else value)]


def load_logs(paths: Sequence[str | Path], options: LoadOptions, dask: Any = None,
              deadline: float | None = None) -> pd.DataFrame:
    """`react_engine.logs.load` (lean: see `to_frame`), or on a Dask cluster (`dask`: a `distributed.Client` or an
    address, else `options.dask`) the same rows as a Dask frame loaded and persisted there, connected and loaded by
    `deadline` (a `time.monotonic()` value)."""
    target = dask if dask is not None else options.dask
    if target is not None:
        from react_engine.dask.cluster import connect
        from react_engine.dask.load import load_by

        return load_by(connect(target, deadline), list(paths), options, deadline)
    from react_engine.logs import load
    from react_engine.logs.reading import reading_by

    with reading_by(deadline):
        return load(list(paths), options, raw=False)


def open_run(question: str, paths: Sequence[str | Path] | None, frame: pd.DataFrame | None, now: str | None,
          options: LoadOptions, dask: Any = None, deadline: float | None = None) -> tuple[RunState, list[str]]:
    """The run state over the loaded logs (or `frame`) and the loader's warnings; `Stop` when loading fails
    (a load on Dask also when it is not done by `deadline`)."""
    warnings: list[str] = []
    if frame is None:
        try:
            frame = load_logs(list(paths or []), options, dask, deadline)
        except TimeLimitError as exc:
            raise Stop("time_limit", str(exc), type(exc).__name__) from None
        except ReactEngineError as exc:
            raise Stop("error", str(exc), type(exc).__name__) from None
        warnings.extend(attrs(frame).get("warnings", []))
    try:
        found = anchor(frame, now)
    except ToolError as exc:
        raise Stop("error", f"--now {now!r}: {exc}", "InputError") from None
    if found.left_out:
        warnings.append(found.left_out)
    inputs = tuple(Path(f["path"]) for f in attrs(frame).get("files", []) if f.get("path"))
    return RunState(question=question, frame=frame, now=found.now, inputs=inputs, now_basis=found.basis,
                    year_given=options.year is not None), warnings


class FrameCache:
    """Loads each distinct list of paths once; a set that fails to load is remembered as None."""

    def __init__(self, options: LoadOptions | None = None, *, dask: Any = None) -> None:
        self.options = options or LoadOptions()
        self.dask = dask
        self._frames: dict[tuple[str, ...], pd.DataFrame | None] = {}

    def load(self, paths: Sequence[str | Path]) -> pd.DataFrame:
        """The frame for `paths`, loading it the first time; a load failure raises its `InputError`."""
        key = tuple(str(p) for p in paths)
        if self._frames.get(key) is None:
            self._frames[key] = None
            self._frames[key] = load_logs(key, self.options, self.dask)
        return self._frames[key]

    def get(self, paths: Sequence[str | Path]) -> pd.DataFrame | None:
        """Like `load`, but None when the logs cannot be loaded (tried once).

        A None frame makes the engine load the paths itself, so the run ends with the loader's own error.
        """
        key = tuple(str(p) for p in paths)
        if key in self._frames and self._frames[key] is None:
            return None
        try:
            return self.load(key)
        except ReactEngineError:
            return None

    @property
    def loads(self) -> int:
        """How many distinct path sets were loaded (or tried)."""
        return len(self._frames)
