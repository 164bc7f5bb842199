"""Tracing: one OTLP-JSON file per run, spans nested per iteration, never breaking a run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from counting_planner import CountingPlanner
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry import trace

from react_engine.errors import InputError
from react_engine.loop.engine import Engine
from react_engine.tracing import NULL_TRACER, OtelTracer, open_tracer, read_trace
from react_engine.tracing.trace_timeline import timeline

LINES = [f"2026-11-20T10:{m:02d}:00Z host{m % 2} app: {'ERROR disk full' if m % 3 == 0 else 'INFO ok'}"
         for m in range(30)]


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "app.log"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


def test_spans_nest_and_round_trip_through_the_file(tmp_path: Path) -> None:
    tracer = OtelTracer(tmp_path)
    with tracer.span("ask", question="q?", paths=["a.log", "b.log"], n=3, ratio=0.5, ok=True, skipped=None,
                     params={"levels": ["error"]}) as root:
        with tracer.span("iteration", iteration=1) as iteration:
            iteration.event("prompt", text="hello")
        root.set(answer="42")
    path = Path(tracer.close())
    document = json.loads(path.read_text())
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert {s["name"] for s in spans} == {"ask", "iteration"}
    ask = next(s for s in spans if s["name"] == "ask")
    child = next(s for s in spans if s["name"] == "iteration")
    assert child["parentSpanId"] == ask["spanId"] and child["traceId"] == ask["traceId"]
    assert ask["parentSpanId"] == "" and int(ask["endTimeUnixNano"]) >= int(ask["startTimeUnixNano"])
    assert {"key": "n", "value": {"intValue": "3"}} in ask["attributes"]
    record = read_trace(path)
    assert record.root.attributes == {"question": "q?", "paths": ["a.log", "b.log"], "n": 3, "ratio": 0.5,
                                      "ok": True, "params": '{"levels": ["error"]}', "answer": "42"}
    assert record.children(record.root)[0].event("prompt").attributes == {"text": "hello"}


def test_each_run_gets_its_own_trace_and_file_without_touching_the_global_provider(tmp_path: Path) -> None:
    before = trace.get_tracer_provider()
    paths = []
    for question in ("one", "two"):
        tracer = open_tracer(tmp_path)
        with tracer.span("ask", question=question):
            pass
        paths.append(tracer.close())
    assert len(set(paths)) == 2 and sorted(p.name for p in tmp_path.iterdir()) == sorted(Path(p).name for p in paths)
    ids = {read_trace(p).root.trace_id for p in paths}
    assert len(ids) == 2
    assert trace.get_tracer_provider() is before


def test_an_unwritable_directory_warns_and_the_run_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    tracer = OtelTracer(blocker / "traces")
    with tracer.span("ask") as span:
        span.set(answer="still fine")
    assert tracer.close() is None
    assert len(tracer.warnings) == 1 and "--no-trace" in tracer.warnings[0]


def test_a_full_disk_leaves_no_temporary_trace_file(tmp_path: Path, monkeypatch) -> None:
    import errno
    import os

    from react_engine.tracing import tracer as tracer_module

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(tracer_module.os, "replace", full)
    tracer = OtelTracer(tmp_path)
    with tracer.span("ask") as span:
        span.set(answer="still fine")
    assert tracer.close() is None
    assert len(tracer.warnings) == 1 and "No space left" in tracer.warnings[0]
    assert list(tmp_path.iterdir()) == []


def test_an_exception_inside_a_span_is_recorded_and_re_raised(tmp_path: Path) -> None:
    tracer = OtelTracer(tmp_path)
    with pytest.raises(KeyError), tracer.span("ask"):
        raise KeyError("boom")
    root = read_trace(tracer.close()).root
    assert root.status.code == 2 and "KeyError" in root.status.message


def test_memory_only_tracer_keeps_the_record_and_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    tracer = open_tracer(None)
    with tracer.span("ask", question="q"):
        pass
    assert tracer.close() is None and list(tmp_path.iterdir()) == []
    assert tracer.record().root.attributes["question"] == "q"


def test_null_tracer_records_nothing() -> None:
    with NULL_TRACER.span("ask", question="q") as span:
        span.set(answer="a")
        span.event("reply", text="x")
    assert NULL_TRACER.close() is None


@pytest.mark.parametrize("content", [None, "not json", '{"resourceSpans": [{"scopeSpans": [{"spans": [{}]}]}]}',
                                     '{"resourceSpans": []}'])
def test_read_trace_rejects_bad_files_naming_the_path(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "t.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InputError, match=str(path)):
        read_trace(path)


@settings(max_examples=50, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",))), number=st.integers(-(2**63), 2**63 - 1), flag=st.booleans(),
       items=st.lists(st.text(max_size=5), max_size=4))
def test_attributes_round_trip_through_the_file(tmp_path_factory, text: str, number: int, flag: bool,
                                                items: list[str]) -> None:
    tracer = OtelTracer(tmp_path_factory.mktemp("traces"))
    with tracer.span("ask", text=text, number=number, flag=flag, items=items):
        pass
    expected = {"text": text, "number": number, "flag": flag, "items": items}
    assert tracer.record().root.attributes == expected
    assert read_trace(tracer.close()).root.attributes == expected


def test_an_engine_run_leaves_a_trace_with_every_span_and_reply(tmp_path: Path, log_file: Path) -> None:
    engine = Engine(CountingPlanner(), tracer_factory=lambda: open_tracer(tmp_path / "traces"))
    result = engine.ask('how many "disk full" lines?', [log_file])
    assert result.trace_file and Path(result.trace_file).parent == tmp_path / "traces"
    record = read_trace(result.trace_file)
    names = [s.name for s in record.spans]
    assert names[0] == "ask" and {"iteration", "context", "planner", "tool"} <= set(names)
    assert names.count("iteration") == result.statistics.iterations == len(result.steps)
    replies = [s.event("reply").attributes["text"] for s in record.descendants("planner")]
    assert replies == [s.reply for s in result.steps]
    view = timeline(record)
    assert [r.action for r in view.rows] == [s.action for s in result.steps]
    assert [r.summary for r in view.rows[:2]] == [s.observation for s in result.steps[:2]]
    assert view.stop_reason == result.stop_reason and view.value == result.value == 10
    assert all(r.prompt_tokens == s.prompt_tokens for r, s in zip(view.rows, result.steps))


def test_the_default_directory_follows_xdg_data_home(tmp_path: Path, monkeypatch) -> None:
    from react_engine.tracing import default_trace_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_trace_dir() == tmp_path / "react-engine" / "traces"


def test_an_attribute_that_cannot_be_recorded_only_warns(tmp_path: Path) -> None:
    loop: list = []
    loop.append(loop)  # json.dumps raises on a circular list
    tracer = OtelTracer(tmp_path)
    with tracer.span("ask", question="q"), tracer.span("iteration", bad=loop) as span:
        span.set(fine=1)
    assert tracer.close() and "iteration" in tracer.warnings[0]
    assert [s.name for s in read_trace(next(tmp_path.iterdir())).spans] == ["ask"]


def test_prompts_and_replies_are_kept_whole_whatever_the_environment_limits(monkeypatch) -> None:
    monkeypatch.setenv("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", "5")
    monkeypatch.setenv("OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT", "5")
    tracer = OtelTracer(None)
    with tracer.span("planner", model="qwen3:4b") as span:
        span.event("reply", text="a reply longer than five characters")
    root = tracer.record().root
    assert root.attributes["model"] == "qwen3:4b"
    assert root.event("reply").attributes["text"] == "a reply longer than five characters"


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3),
                     max_leaves=12)


@settings(max_examples=80, deadline=None)
@given(document=st.one_of(_JSON, st.fixed_dictionaries({"resourceSpans": _JSON})))
def test_any_json_file_is_a_trace_or_an_input_error(tmp_path_factory, document) -> None:
    path = tmp_path_factory.mktemp("t") / "trace.json"
    path.write_text(json.dumps(document))
    try:
        record = read_trace(path)
    except InputError as exc:
        assert str(path) in str(exc) and "\n" not in str(exc)
    else:
        assert record.spans
