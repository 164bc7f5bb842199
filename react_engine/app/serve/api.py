"""The HTTP JSON API (`/v1/...`, described at `/v1/openapi.json`) and the page at `/`. Every error is
`{"error": "one line"}` with a 4xx or 5xx status."""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from react_engine import __version__
from react_engine.app.roots import OutsideRoots, log_files
from react_engine.app.serve.guards import TOO_LARGE, BodyTooLarge, Guards
from react_engine.app.serve.limits import ServeLimits
from react_engine.app.serve.runs import Busy, Run, RunQueue
from react_engine.app.serve.session_store import Session, SessionOptions, open_session
from react_engine.app.serve.warm_frames import WarmFrames
from react_engine.errors import InputError, ReactEngineError
from react_engine.tracing import Tracer, default_trace_dir

PAGE = Path(__file__).with_name("page")
KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream
MAX_WAIT = 60.0  # the longest GET /v1/runs/{id}?wait= holds a request


class AskBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    question: str = Field(description="the question, in plain language")


class ApproveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    request_id: str = Field(description="the approval's request_id, from the run's `approval`")
    approved: bool
    reason: str = Field("", max_length=500)


class Server:
    """What the routes share: the limits, the warm frames, the sessions and the run queue."""

    def __init__(self, limits: ServeLimits) -> None:
        self.limits = limits
        self.frames = WarmFrames(limits.memory_budget_bytes)
        self.sessions: dict[str, Session] = {}
        self.queue = RunQueue(limits.max_runs, limits.max_queued, limits.kept_runs)
        self.trace_dir = limits.trace_dir or default_trace_dir()

    def session(self, session_id: str) -> Session:
        found = self.sessions.pop(session_id, None)
        if found is None:
            raise HTTPException(404, f"no session {session_id}: open one with POST /v1/sessions (an idle one "
                                     "is closed when the server holds too many)")
        self.sessions[session_id] = found  # the most recently used now
        return found

    def make_room(self) -> None:
        """Below the session limit, closing the least recently used idle session if need be; Busy when every
        session has a run going."""
        if len(self.sessions) < self.limits.max_sessions:
            return
        for session_id, session in self.sessions.items():  # least recently used first
            if not any((run := self.queue.get(r)) is not None and run.state != "done" for r in session.runs):
                self.sessions.pop(session_id).close()
                return
        raise Busy(f"{len(self.sessions)} sessions are open and busy, the most this server keeps: close one "
                   "(DELETE /v1/sessions/{id}) or try again shortly")

    def run(self, run_id: str) -> Run:
        found = self.queue.get(run_id)
        if found is None:
            raise HTTPException(404, f"no run {run_id}: start one with POST /v1/sessions/{{id}}/ask")
        return found

    def tracer(self) -> Callable[[], Tracer] | None:
        if not self.limits.trace:
            return None
        from react_engine.tracing import open_tracer

        directory = self.trace_dir
        return lambda: open_tracer(directory)

    def close(self) -> None:
        self.queue.close()
        for session in self.sessions.values():
            session.close()


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status)


def server_limit(request: Request) -> int:
    return int(request.app.state.server.limits.max_body_bytes)


def _handlers(app: FastAPI) -> None:
    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        if request.scope.get(TOO_LARGE):
            return _error(413, f"the body is over the limit of {server_limit(request):,} bytes")
        return _error(exc.status_code, str(exc.detail))

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":
            return _error(422, "the body is not valid JSON: send one JSON object")
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        return _error(422, f"{where}: {first.get('msg', 'invalid request')}")

    async def refused(request: Request, exc: Exception) -> JSONResponse:
        status = 403 if isinstance(exc, OutsideRoots) else 429 if isinstance(exc, Busy) else 400
        return _error(status, str(exc))

    async def too_large(request: Request, exc: Exception) -> JSONResponse:
        return _error(413, f"the body is over the limit of {server_limit(request):,} bytes")

    async def failed(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"the server failed: {type(exc).__name__}: {exc}")

    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(ReactEngineError, refused)
    app.add_exception_handler(Busy, refused)
    app.add_exception_handler(BodyTooLarge, too_large)
    app.add_exception_handler(Exception, failed)


def _session_routes(app: FastAPI, server: Server) -> None:
    @app.post("/v1/sessions", status_code=201, summary="Open a session over logs under the served roots")
    async def create_session(options: SessionOptions) -> dict[str, Any]:
        server.make_room()
        session = await run_in_threadpool(open_session, options, server.frames, server.limits)
        server.sessions[session.id] = session
        return session.describe()

    @app.get("/v1/sessions/{session_id}", summary="A session's logs, planner and runs")
    async def get_session(session_id: str) -> dict[str, Any]:
        return server.session(session_id).describe()

    @app.delete("/v1/sessions/{session_id}", summary="Close a session (its runs are cancelled)")
    async def close_session(session_id: str) -> dict[str, str]:
        session = server.session(session_id)
        for run_id in session.runs:
            if (run := server.queue.get(run_id)) is not None:
                run.cancel()
        server.sessions.pop(session_id, None)
        session.close()
        return {"status": "closed"}

    @app.post("/v1/sessions/{session_id}/reset", summary="Follow-ups start from all rows again")
    async def reset_session(session_id: str) -> dict[str, str]:
        server.session(session_id).reset()
        return {"status": "reset"}

    @app.post("/v1/sessions/{session_id}/ask", status_code=202, summary="Start a run answering a question")
    async def ask(session_id: str, body: AskBody) -> dict[str, str]:
        session = server.session(session_id)
        question = body.question
        if not question.strip():
            raise InputError('the question is empty: ask something, e.g. "How many errors?"')
        if len(question) > server.limits.max_question_chars:
            raise InputError(f"the question has {len(question):,} characters, over the limit of "
                             f"{server.limits.max_question_chars:,}: shorten it")
        run = Run(session.id, question, session.planner.name)
        tracer = server.tracer()
        server.queue.submit(run, lambda r: session.answer(r, tracer))
        session.runs.append(run.id)
        return {"run_id": run.id}

    @app.post("/v1/sessions/{session_id}/approve", summary="Answer the approval a run in this session waits for")
    async def approve(session_id: str, body: ApproveBody) -> dict[str, str]:
        session = server.session(session_id)
        for run_id in reversed(session.runs):
            run = server.queue.get(run_id)
            if run is not None and (answered := run.decide(body.request_id, body.approved, body.reason)) is not None:
                if not answered:
                    raise HTTPException(409, f"approval {body.request_id} was already answered or timed out")
                return {"status": "approved" if body.approved else "rejected", "run_id": run.id}
        raise HTTPException(404, f"no approval {body.request_id} is waiting in this session: it may have been "
                                 "answered, timed out or been cancelled (GET /v1/runs/{id} shows the run)")


def _run_routes(app: FastAPI, server: Server) -> None:
    @app.get("/v1/runs/{run_id}", summary="A run as `ask --json` gives it, with its status")
    async def get_run(run_id: str, wait: float = Query(0, ge=0, description="seconds to wait for the run to "
                                                                            "leave `running`")) -> dict[str, Any]:
        run = server.run(run_id)
        deadline = time.monotonic() + min(wait, MAX_WAIT)
        while True:
            seen = run.changes.version  # before the status: a change between the two is not missed
            if run.status != "running" or (left := deadline - time.monotonic()) <= 0:
                return run.body()
            await run.changes.wait(seen, left)

    @app.get("/v1/runs/{run_id}/events", summary="The run's steps as server-sent events, as they happen",
             response_class=StreamingResponse)
    async def events(run_id: str, request: Request) -> StreamingResponse:
        run = server.run(run_id)
        return StreamingResponse(_stream(run, request), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @app.post("/v1/runs/{run_id}/cancel", summary="Cancel a run (at its next step, or at once while it waits)")
    async def cancel(run_id: str) -> dict[str, str]:
        run = server.run(run_id)
        return {"status": "cancelling" if run.cancel() else "done"}


async def _stream(run: Run, request: Request) -> AsyncIterator[bytes]:
    """Each event as `id: N`, `event: NAME` and `data: JSON`, from the first (or after the `Last-Event-ID` a
    reconnecting client sends); ends after `done`."""
    last = request.headers.get("last-event-id", "")
    sent = int(last) + 1 if last.isdigit() else 0
    while True:
        seen = run.changes.version
        events = run.events[sent:]
        for number, item in enumerate(events, sent):
            data = json.dumps(item["data"], default=str)
            yield f"id: {number}\nevent: {item['event']}\ndata: {data}\n\n".encode()
        sent += len(events)
        if events and events[-1]["event"] == "done":
            return
        if await request.is_disconnected():
            return
        if await run.changes.wait(seen, KEEP_ALIVE) == seen:
            yield b": keep-alive\n\n"


TRACE_NAME = re.compile(r"^[\w.-]{1,120}$")


def _trace_path(name: str, directory: Path) -> Path:
    """The trace in `directory` that `name` (a file name or trace id, never a path) names."""
    from react_engine.app.housekeeping import find_trace

    if not TRACE_NAME.match(name) or name.startswith("."):
        raise InputError(f"{name!r}: give a trace's file name or id, as GET /v1/traces lists them")
    return find_trace(name, directory)


def _replayed(path: Path, roots: tuple[Path, ...]) -> dict[str, Any]:
    """The replay of the trace at `path` over its recorded logs, which must still be under the roots (its writes
    are denied)."""
    from react_engine.app.replay import RecordedRun, replay
    from react_engine.tracing import read_trace

    recorded = RecordedRun.of(read_trace(path))
    if not recorded.paths:
        raise InputError(f"{path.name}: the trace names no log files to replay over")
    report = replay(path, paths=log_files(recorded.paths, roots))
    return {**report.model_dump(mode="json"), "identical": report.identical}


def _other_routes(app: FastAPI, server: Server) -> None:
    @app.get("/v1/health", summary="Whether the server is up, and what it holds")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "sessions": len(server.sessions),
                "frames": len(server.frames), "frame_bytes": server.frames.held(),
                "roots": [str(r) for r in server.limits.roots]}

    @app.get("/v1/traces", summary="The most recent runs' traces, newest first")
    async def traces(limit: int = Query(20, ge=1, le=500)) -> list[dict[str, Any]]:
        from react_engine.app.housekeeping import recent_traces

        found = await run_in_threadpool(recent_traces, server.trace_dir, limit)
        return [{**e.model_dump(mode="json"), "name": Path(e.path).name} for e in found]

    @app.get("/v1/traces/{name}", summary="One trace as a timeline (by file name or trace id)")
    async def trace(name: str) -> dict[str, Any]:
        from react_engine.tracing import read_trace
        from react_engine.tracing.trace_timeline import timeline

        path = _trace_path(name, server.trace_dir)
        return (await run_in_threadpool(lambda: timeline(read_trace(path)))).model_dump(mode="json")

    @app.post("/v1/traces/{name}/replay", summary="Re-run a trace's question with its recorded replies")
    async def replay_trace(name: str) -> dict[str, Any]:
        return await run_in_threadpool(_replayed, _trace_path(name, server.trace_dir), server.limits.roots)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(PAGE / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/page", StaticFiles(directory=PAGE), name="page")


def create_app(limits: ServeLimits, *, hosts: tuple[str, ...] | None = None) -> Any:
    """The ASGI app: the API and page behind the guards. `hosts`: the Host names taken (None: any)."""
    server = Server(limits)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        server.close()

    app = FastAPI(title="react-engine", version=__version__, openapi_url="/v1/openapi.json", docs_url=None,
                  redoc_url=None, lifespan=lifespan,
                  description="Ask questions of log files; approve side effects; watch runs.")
    app.state.server = server
    _handlers(app)
    _session_routes(app, server)
    _run_routes(app, server)
    _other_routes(app, server)
    guarded = Guards(app, hosts=hosts, token=limits.token, max_body=limits.max_body_bytes)
    guarded.server = server  # type: ignore[attr-defined]
    return guarded
