"""OTLP export: with OTEL_EXPORTER_OTLP_*ENDPOINT set, spans also reach a collector (a real receiver on loopback)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from react_engine import Engine
from react_engine.logs.options import LoadOptions
from react_engine.planners.ollama import OllamaPlanner
from react_engine.tracing import open_tracer, read_trace

trace_service_pb2 = pytest.importorskip(
    "opentelemetry.proto.collector.trace.v1.trace_service_pb2",
    reason="needs the OTLP exporter: pip install -e '.[dev]' (or '.[otlp]')")

SYSLOG = Path(__file__).resolve().parents[1] / "sample_logs" / "syslog" / "messages"


class Receiver:
    """An OTLP/HTTP trace receiver: decodes each protobuf ExportTraceServiceRequest it is sent."""

    def __init__(self, status: int = 200) -> None:
        self.requests: list = []
        self.paths: list[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                request = trace_service_pb2.ExportTraceServiceRequest()
                request.ParseFromString(body)
                receiver.requests.append(request)
                receiver.paths.append(self.path)
                self.send_response(status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.end_headers()
                self.wfile.write(trace_service_pb2.ExportTraceServiceResponse().SerializeToString())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def spans(self) -> list:
        return [span for request in self.requests for rs in request.resource_spans for ss in rs.scope_spans
                for span in ss.spans]

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as running:
        yield running


def _attributes(span) -> dict:
    out = {}
    for kv in span.attributes:
        value = kv.value
        kind = value.WhichOneof("value")
        out[kv.key] = list(v.string_value for v in value.array_value.values) if kind == "array_value" else \
            getattr(value, kind)
    return out


def _reply(action: str, **params) -> dict:
    return {"reasoning": "r", "action": action, "params": params}


def test_spans_reach_the_collector_and_the_file_with_genai_attributes(tmp_path: Path, receiver: Receiver,
                                                                       fake_ollama, fake_ollama_module,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
    fake_ollama.push(fake_ollama_module.good(_reply("get_log_count")),
                     fake_ollama_module.good(_reply("finalize_answer", answer="Counted.")))
    planner = OllamaPlanner(model="qwen3:4b", host=fake_ollama.host, timeout=10)
    result = Engine(planner, tracer_factory=lambda: open_tracer(tmp_path)).ask(
        "How many lines?", [str(SYSLOG)], load_options=LoadOptions(use_cache=False))
    assert result.stop_reason == "stop" and not [w for w in result.warnings if "OTLP" in w]
    assert set(receiver.paths) == {"/v1/traces"}
    sent = receiver.spans()
    written = [s for rs in read_trace(result.trace_file).resource_spans for ss in rs.scope_spans for s in ss.spans]
    assert sorted(s.name for s in sent) == sorted(s.name for s in written)  # the same spans in both places
    assert {s.span_id.hex() for s in sent} == {s.span_id for s in written}
    planners = [_attributes(s) for s in sent if s.name == "planner"]
    assert len(planners) == 2
    for attrs, step in zip(planners, result.steps):
        assert attrs["gen_ai.operation.name"] == "chat" and attrs["gen_ai.request.model"] == "qwen3:4b"
        assert attrs["gen_ai.provider.name"] == "ollama"
        assert attrs["gen_ai.usage.input_tokens"] == step.usage.prompt_tokens > 0
        assert attrs["gen_ai.usage.output_tokens"] == step.usage.completion_tokens > 0
        assert attrs["gen_ai.response.finish_reasons"] == [step.done_reason]


def test_the_traces_endpoint_variable_is_used_as_the_full_url(tmp_path: Path, receiver: Receiver,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", f"{receiver.url}/custom/path")
    tracer = open_tracer(None)
    with tracer.span("ask", question="q"):
        pass
    tracer.close()
    assert receiver.paths == ["/custom/path"] and [s.name for s in receiver.spans()] == ["ask"]


def test_without_an_endpoint_nothing_is_sent(tmp_path: Path, receiver: Receiver,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)
    tracer = open_tracer(tmp_path)
    with tracer.span("ask"):
        pass
    assert tracer.close() is not None and receiver.requests == []


def test_a_collector_that_is_down_gives_one_warning_and_the_run_goes_on(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "1")
    from react_engine.planners.rules import RulesPlanner

    result = Engine(RulesPlanner(), tracer_factory=lambda: open_tracer(tmp_path)).ask("how many lines?",
                                                                                       [str(SYSLOG)])
    assert result.stop_reason == "stop" and Path(result.trace_file).is_file()
    assert sum("OTLP collector" in w for w in result.warnings) == 1


def test_a_hanging_collector_holds_the_command_a_few_seconds_at_most_with_a_warning(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    import time

    release = threading.Event()

    class Hanging(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            release.wait(120)  # reads the spans, never answers

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hanging)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{server.server_address[1]}",
           "OTEL_EXPORTER_OTLP_TIMEOUT": "60", "XDG_DATA_HOME": str(tmp_path)}
    try:
        began = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "react_engine", "ask", "how many lines?", str(SYSLOG),
                               "--planner", "rules", "--no-cache"], capture_output=True, text=True, env=env,
                              timeout=120)
        elapsed = time.monotonic() - began
    finally:
        release.set()
        server.shutdown()
        server.server_close()
    assert done.returncode == 0, done.stderr
    assert "OTLP collector" in done.stderr and "did not answer within" in done.stderr
    assert elapsed < 25, f"the command took {elapsed:.1f}s with a hanging collector"  # unbounded: over 31 s
