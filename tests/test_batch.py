"""Batch runs: query files, one flushed line per result, resume after Ctrl-C or a crash, transport retries."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from counting_planner import CountingPlanner
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.app.batches import BatchItem, answered_ids, load_queries, question_id, run_batch
from react_engine.app.cli import main
from react_engine.errors import InputError, ModelNotFoundError, PlannerConnectionError
from react_engine.loop.engine import Engine
from react_engine.loop.frames import FrameCache

WORDS = ["alpha", "beta", "gamma", "delta", "omega"]
QUESTIONS = [f'how many "{w}" lines?' for w in WORDS]
TESTS = Path(__file__).parent


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    """Word i appears on i+1 lines, so each question has its own answer."""
    lines = [f"2026-11-20T10:00:{n:02d}Z host app: {w}" for i, w in enumerate(WORDS) for n in range(i + 1)]
    path = tmp_path / "app.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _items() -> list[BatchItem]:
    return [BatchItem(id=question_id(q), question=q) for q in QUESTIONS]


def _lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in out.read_text().splitlines()]


def _check_complete(out: Path) -> None:
    """Exactly one result per question, each with its own correct count."""
    rows = _lines(out)
    assert sorted(r["id"] for r in rows) == sorted(question_id(q) for q in QUESTIONS)
    assert {r["query"]: r["value"] for r in rows} == {q: i + 1 for i, q in enumerate(QUESTIONS)}


def test_load_queries_from_text_jsonl_and_yaml(tmp_path: Path) -> None:
    text = tmp_path / "q.txt"
    text.write_text("# comment\nhow many errors?\n\nwhich hosts?\n")
    assert [(i.id, i.question) for i in load_queries(text)] == [
        (question_id("how many errors?"), "how many errors?"), (question_id("which hosts?"), "which hosts?")]
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text('"how many errors?"\n{"id": 7, "question": "which hosts?", "logs": "a.log"}\n')
    items = load_queries(jsonl)
    assert items[1].id == "7" and items[1].logs == [str(tmp_path / "a.log")]
    yml = tmp_path / "sub" / "q.yaml"
    yml.parent.mkdir()
    yml.write_text("- id: first\n  question: how many errors?\n  logs: [x.log, y.log]\n- which hosts?\n")
    items = load_queries(yml)
    assert items[0].logs == [str(yml.parent / "x.log"), str(yml.parent / "y.log")]
    assert items[1].id == question_id("which hosts?") and items[1].logs == []


def test_question_ids_are_stable_and_ignore_surrounding_space() -> None:
    assert question_id("how many?") == question_id("  how many? ") != question_id("how many!")


@pytest.mark.parametrize("content, problem", [
    ("same?\nsame?\n", "same id"),
    ("- {question: a, colour: red}\n", "colour"),
    ("- {id: x}\n", "question"),
    ("key: [unclosed\n", "cannot read"),
])
def test_bad_query_files_give_one_line_errors(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / ("q.yaml" if content.startswith(("-", "key")) else "q.txt")
    path.write_text(content)
    with pytest.raises(InputError, match=problem) as caught:
        load_queries(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_a_batch_writes_one_line_per_question_shaped_like_ask_json(tmp_path: Path, log_file: Path) -> None:
    out = tmp_path / "results.jsonl"
    summary = run_batch(Engine(CountingPlanner()), _items(), out, logs=[log_file])
    assert (summary.written, summary.skipped, summary.counts, summary.interrupted) == (5, 0, {"stop": 5}, False)
    _check_complete(out)
    first = _lines(out)[0]
    assert next(iter(first)) == "id" and {"query", "answer", "value", "verified", "stop_reason", "steps",
                                        "statistics", "evidence", "planner", "model", "trace_file"} <= set(first)


def test_logs_are_loaded_once_per_distinct_set(tmp_path: Path, log_file: Path, monkeypatch) -> None:
    import react_engine.logs as logs

    calls = []
    real = logs.load
    monkeypatch.setattr(logs, "load", lambda paths, options, **kw: calls.append(paths) or real(paths, options, **kw))
    other = tmp_path / "other.log"
    other.write_text("2026-11-20T10:00:00Z host app: alpha\n")
    items = [*_items(), BatchItem(id="own", question='how many "alpha" lines?', logs=[str(other)])]
    frames = FrameCache()
    run_batch(Engine(CountingPlanner()), items, tmp_path / "out.jsonl", logs=[log_file], frames=frames)
    assert calls == [[str(log_file)], [str(other)]]
    assert _lines(tmp_path / "out.jsonl")[-1]["value"] == 1


def test_ctrl_c_on_a_question_stops_and_a_rerun_resumes_to_one_result_each(tmp_path: Path, log_file: Path) -> None:
    out = tmp_path / "results.jsonl"
    interrupted = CountingPlanner(fail={QUESTIONS[2]: KeyboardInterrupt()})
    first = run_batch(Engine(interrupted), _items(), out, logs=[log_file])
    assert first.interrupted and first.written == 2 and first.remaining == 3
    assert [r["query"] for r in _lines(out)] == QUESTIONS[:2]
    second = run_batch(Engine(CountingPlanner()), _items(), out, logs=[log_file])
    assert (second.skipped, second.written, second.interrupted) == (2, 3, False)
    _check_complete(out)


_DRIVER = """
import sys
from counting_planner import CountingPlanner
from react_engine.app.batches import BatchItem, question_id, run_batch
from react_engine.loop.engine import Engine
questions, out, log = sys.argv[1].split("|"), sys.argv[2], sys.argv[3]
items = [BatchItem(id=question_id(q), question=q) for q in questions]
run_batch(Engine(CountingPlanner(hang=questions[3])), items, out, logs=[log])
"""


def test_a_killed_batch_loses_nothing_answered_and_resumes(tmp_path: Path, log_file: Path) -> None:
    out = tmp_path / "results.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-c", _DRIVER, "|".join(QUESTIONS), str(out), str(log_file)],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (out.exists() and out.read_text().count("\n") >= 3):
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, "the batch never wrote three results"
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert len(_lines(out)) == 3
    with out.open("a") as handle:  # as if the crash had cut a write short
        handle.write('{"id": "partial", "query": "cut o')
    summary = run_batch(Engine(CountingPlanner()), _items(), out, logs=[log_file])
    assert (summary.skipped, summary.written) == (3, 2)
    _check_complete(out)


def test_answered_ids_cuts_a_partial_last_line(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text('{"id": "a"}\n{"id": "b"}\n{"id": "c", "quer')
    assert answered_ids(out) == {"a", "b"}
    assert out.read_text() == '{"id": "a"}\n{"id": "b"}\n'


def test_a_corrupt_results_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text("not json\n")
    with pytest.raises(InputError, match="line 1"):
        answered_ids(out)


def test_transport_errors_are_retried_with_backoff_and_others_are_not(tmp_path: Path, log_file: Path) -> None:
    waits: list[float] = []
    planner = CountingPlanner(fail={QUESTIONS[0]: PlannerConnectionError("refused"),
                                    QUESTIONS[1]: ModelNotFoundError("no model")}, fail_times=2)
    summary = run_batch(Engine(planner), _items(), tmp_path / "r.jsonl", logs=[log_file], retries=3,
                        backoff=0.5, sleep=waits.append)
    rows = {r["query"]: r for r in _lines(tmp_path / "r.jsonl")}
    assert rows[QUESTIONS[0]]["stop_reason"] == "stop" and rows[QUESTIONS[0]]["value"] == 1
    assert rows[QUESTIONS[1]]["stop_reason"] == "error"
    assert rows[QUESTIONS[1]]["error_type"] == "ModelNotFoundError"
    assert len(waits) == 2 and summary.retried == 2  # RetryPolicy's backoff: doubling, plus up to 25% jitter
    assert 0.5 <= waits[0] <= 0.625 and 1.0 <= waits[1] <= 1.25
    assert summary.counts == {"stop": 4, "error": 1} and summary.error_types == {"ModelNotFoundError": 1}
    assert any("ModelNotFoundError 1" in hint for hint in summary.hints)


def test_retries_are_bounded(tmp_path: Path, log_file: Path) -> None:
    planner = CountingPlanner(fail={QUESTIONS[0]: PlannerConnectionError("refused")}, fail_times=99)
    summary = run_batch(Engine(planner), _items()[:1], tmp_path / "r.jsonl", logs=[log_file], retries=2,
                        sleep=lambda s: None)
    assert planner.calls[QUESTIONS[0]] == 3 and summary.counts == {"error": 1}
    assert _lines(tmp_path / "r.jsonl")[0]["error_type"] == "PlannerConnectionError"


def test_cli_batch_plain_log_summary_and_resume(tmp_path: Path, log_file: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text("\n".join(QUESTIONS[:2]) + "\n")
    script = tmp_path / "replies.json"
    script.write_text(json.dumps([
        '{"action": "search_logs", "params": {"value": "alpha"}}',
        '{"action": "finalize_answer", "params": {"answer": "1 line", "value": 1}}',
        '{"action": "search_logs", "params": {"value": "beta"}}',
        '{"action": "finalize_answer", "params": {"answer": "2 lines", "value": 2}}']))
    out = tmp_path / "r.jsonl"
    args = ["batch", str(queries), "--logs", str(log_file), "--out", str(out), "--planner", f"script:{script}",
            "--trace-dir", str(tmp_path / "traces")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "[2/2]" in result.output and "outcomes: answered 2, refused 0" in result.output
    rows = _lines(out)
    assert [r["value"] for r in rows] == [1, 2] and all(Path(r["trace_file"]).exists() for r in rows)
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and len(_lines(out)) == 2
    assert f"all 2 questions were already answered in {out}" in again.stderr and "answered 0" not in again.stderr


def test_cli_batch_with_unusable_logs_fails_fast(tmp_path: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text("how many?\n")
    result = CliRunner().invoke(main, ["batch", str(queries), "--logs", str(tmp_path / "missing.log"),
                                       "--out", str(tmp_path / "r.jsonl"), "--planner", "rules", "--no-trace"])
    assert result.exit_code == 1 and "missing.log" in result.output and not (tmp_path / "r.jsonl").exists()


def test_on_a_terminal_the_progress_bar_shows_done_total_and_stop_reason_counts(tmp_path: Path, log_file: Path,
                                                                                 monkeypatch) -> None:
    import io

    from react_engine.app.cli.batch import _Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    out = tmp_path / "r.jsonl"
    run_batch(Engine(CountingPlanner()), _items()[:2], out, logs=[log_file])
    progress = _Progress(len(QUESTIONS))
    run_batch(Engine(CountingPlanner()), _items(), out, logs=[log_file], on_result=progress)
    progress.close()
    shown = terminal.getvalue()
    assert "5/5" in shown and "answered=3" in shown and "[3/5]" not in shown  # a bar, not plain lines


def test_a_question_without_logs_is_refused_before_anything_runs(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with pytest.raises(InputError, match="no logs"):
        run_batch(Engine(CountingPlanner()), _items(), out)
    assert not out.exists()


_QUESTION = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=40).filter(
    lambda q: q.strip() and not q.lstrip().startswith("#"))


@settings(max_examples=30, deadline=None)
@given(questions=st.lists(_QUESTION, min_size=1, max_size=6, unique_by=lambda q: q.strip()))
def test_query_files_round_trip_in_every_format(tmp_path_factory, questions: list[str]) -> None:
    folder = tmp_path_factory.mktemp("queries")
    files = {"q.txt": "\n".join(questions) + "\n",
             "q.jsonl": "\n".join(json.dumps({"question": q}) for q in questions),
             "q.yaml": yaml.safe_dump([{"question": q} for q in questions])}
    expected_text = [q.strip() for q in questions]
    for name, content in files.items():
        path = folder / name
        path.write_text(content, encoding="utf-8")
        items = load_queries(path)
        assert [i.question for i in items] == (expected_text if name == "q.txt" else questions), name
        assert [i.id for i in items] == [question_id(q) for q in questions]


def test_an_unwritable_results_path_is_a_one_line_error(tmp_path: Path, log_file: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(InputError, match="cannot write results"):
        run_batch(Engine(CountingPlanner()), _items(), blocker / "r.jsonl", logs=[log_file])


def test_cli_batch_exits_1_when_a_question_ends_in_error(tmp_path: Path, log_file: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text("\n".join(QUESTIONS[:2]) + "\n")
    script = tmp_path / "replies.json"  # three invalid replies in a row end the first question with `error`
    script.write_text(json.dumps(["nope", "nope", "nope", '{"action": "get_log_count", "params": {}}',
                                  '{"action": "finalize_answer", "params": {"answer": "counted"}}']))
    out = tmp_path / "r.jsonl"
    result = CliRunner().invoke(main, ["batch", str(queries), "--logs", str(log_file), "--out", str(out),
                                       "--planner", f"script:{script}", "--no-trace"])
    assert result.exit_code == 1, result.output
    assert [r["stop_reason"] for r in _lines(out)] == ["error", "stop"]


def test_cli_batch_counts_refusals_apart_from_answers(tmp_path: Path, log_file: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text("how many lines are there?\nWhat is the meaning of life?\n")
    result = CliRunner().invoke(main, ["batch", str(queries), "--logs", str(log_file), "--out",
                                       str(tmp_path / "r.jsonl"), "--planner", "rules", "--no-trace"])
    rows = _lines(tmp_path / "r.jsonl")
    assert [r["stop_reason"] for r in rows] == ["stop", "stop"]  # a refusal is a normal stop...
    assert "outcomes: answered 1, refused 1\n" in result.stderr  # ...but it is not counted as answered
    assert result.exit_code == 0


def test_cli_batch_reads_questions_from_stdin_and_writes_results_to_stdout(tmp_path: Path, log_file: Path) -> None:
    result = CliRunner().invoke(main, ["batch", "-", "--logs", str(log_file), "--out", "-", "--planner", "rules",
                                       "--no-trace"], input='how many "alpha" lines?\nhow many "gamma" lines?\n')
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["value"] for r in rows] == [1, 3]
    assert "2 written now" in result.stderr and "already in stdout" in result.stderr


def test_jsonl_queries_from_stdin_are_recognised(tmp_path: Path) -> None:
    import io

    stdin = io.StringIO('{"id": "a", "question": "how many?"}\n')
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", stdin)
        assert [(i.id, i.question) for i in load_queries("-")] == [("a", "how many?")]


def test_jsonl_query_errors_name_the_file_line(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"question": "one"}\n\n\n{"question": "two", "colour": 1}\n')
    with pytest.raises(InputError, match=r"line 4: colour"):
        load_queries(path)
    path.write_text('{"question": "one"}\n\n{"question": \n')
    with pytest.raises(InputError, match=r"line 3 is not JSON"):
        load_queries(path)


def test_a_second_batch_on_the_same_out_is_refused_while_the_first_holds_it(tmp_path: Path, log_file: Path) -> None:
    import fcntl

    out = tmp_path / "r.jsonl"
    with out.open("a") as holder:  # another batch holding the lock
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
        with pytest.raises(InputError, match="another batch is writing"):
            run_batch(Engine(CountingPlanner()), _items(), out, logs=[log_file])
    summary = run_batch(Engine(CountingPlanner()), _items(), out, logs=[log_file])
    assert summary.written == 5
    _check_complete(out)


def test_two_batch_processes_on_one_out_write_no_duplicates(tmp_path: Path, log_file: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text("\n".join(QUESTIONS) + "\n")
    out = tmp_path / "r.jsonl"
    args = [sys.executable, "-m", "react_engine", "batch", str(queries), "--logs", str(log_file), "--out", str(out),
            "--planner", "rules", "--no-trace", "-q"]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    runs = [subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    outcomes = [(p.wait(timeout=120), p.stderr.read()) for p in runs]
    for run in runs:
        run.stdout.close()
        run.stderr.close()
    _check_complete(out)  # one line per question, whichever way the two runs interleaved
    for code, stderr in outcomes:
        assert code == 0 or (code == 1 and "another batch is writing" in stderr), stderr
        assert "Traceback" not in stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux) to simulate a full disk")
def test_a_full_disk_during_batch_out_is_a_one_line_error(tmp_path: Path, log_file: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text(QUESTIONS[0] + "\n")
    result = CliRunner().invoke(main, ["batch", str(queries), "--logs", str(log_file), "--out", "/dev/full",
                                       "--planner", "rules", "--no-trace"])
    assert result.exit_code == 1
    assert "/dev/full: cannot write results (No space left on device)" in result.stderr
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


def _outside_batch(tmp_path: Path, log_file: Path) -> tuple[Path, Path]:
    """A batch folder holding one log and a link to a log outside it, and a YAML file whose items name logs in it,
    beside it (`..`), by absolute path, by the link and by a glob."""
    folder, elsewhere = tmp_path / "batch", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "ok.log").write_text(log_file.read_text())
    (elsewhere / "secret.log").write_text("2026-11-20T10:00:00Z host app: alpha secret\n")
    (folder / "link.log").symlink_to(elsewhere / "secret.log")
    queries = folder / "q.yaml"
    queries.write_text(yaml.safe_dump([
        {"id": "inside", "question": 'how many "alpha" lines?', "logs": "ok.log"},
        {"id": "parent", "question": 'how many "alpha" lines?', "logs": "../elsewhere/secret.log"},
        {"id": "absolute", "question": 'how many "alpha" lines?', "logs": str(elsewhere / "secret.log")},
        {"id": "link", "question": 'how many "alpha" lines?', "logs": "link.log"},
        {"id": "folder", "question": 'how many "alpha" lines?', "logs": str(elsewhere)},
        {"id": "glob", "question": 'how many "alpha" lines?', "logs": "*.log"},
    ]))
    return queries, elsewhere


def test_batch_items_read_logs_only_under_the_allowed_folders(tmp_path: Path, log_file: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    queries, elsewhere = _outside_batch(tmp_path, log_file)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(main, ["batch", str(queries), "--out", "-", "--planner", "rules", "--no-trace"])
    rows = {row["id"]: row for row in map(json.loads, result.stdout.splitlines())}
    assert result.exit_code == 1, result.output
    for refused in ("parent", "absolute", "link", "folder"):
        assert rows[refused]["stop_reason"] == "error" and "--allow-logs" in rows[refused]["message"]
        assert "secret" not in json.dumps(rows[refused]["evidence"]) and rows[refused]["value"] is None
    assert rows["inside"]["value"] == 1 and rows["glob"]["value"] == 1  # the glob leaves the link out
    refusals = [line for line in result.stderr.splitlines() if "outside the folders" in line]
    assert len(refusals) == 4 and all(line.startswith("[") for line in refusals)  # one line per refused item
    allowed = CliRunner().invoke(main, ["batch", str(queries), "--out", "-", "--planner", "rules", "--no-trace",
                                        "--allow-logs", str(elsewhere)])
    assert allowed.exit_code == 0 and all(json.loads(r)["stop_reason"] == "stop" for r in allowed.stdout.splitlines())


def test_batch_progress_names_each_question_cut_to_one_line(tmp_path: Path, log_file: Path) -> None:
    queries = tmp_path / "q.txt"
    long = "how many " + "very " * 30 + 'long "alpha" lines?'
    queries.write_text(f'how many "beta" lines?\n{long}\n')
    result = CliRunner().invoke(main, ["batch", str(queries), "--logs", str(log_file), "--out", "-", "--planner",
                                       "rules", "--no-trace"])
    progress = [line for line in result.stderr.splitlines() if line.startswith("[")]
    assert progress[0].startswith("[1/2] 'how many \"beta\" lines?' stop")
    assert question_id(long) not in result.stderr and "how many very very" in progress[1]
    assert "…" in progress[1] and len(progress[1]) < 100
