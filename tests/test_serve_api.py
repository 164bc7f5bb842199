"""`react-engine serve` through HTTP against a real uvicorn on 127.0.0.1: sessions, streamed runs, approvals
(approved, rejected, two in one run, unanswered in time), cancelling, the roots, the limits and 20 clients at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_server import ask, logs_root, running, session, wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return logs_root(tmp_path)


@pytest.fixture
def client(root: Path) -> Iterator[httpx.Client]:
    with running([root], approval_timeout=30) as base, httpx.Client(base_url=base, timeout=30) as http:
        yield http


def _events(client: httpx.Client, run_id: str) -> list[tuple[str, dict[str, Any]]]:
    """Every event of the run's stream, until `done`."""
    found = []
    with client.stream("GET", f"/v1/runs/{run_id}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        name = None
        for line in stream.iter_lines():
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: ") and name:
                found.append((name, json.loads(line.removeprefix("data: "))))
    return found


def _approve(client: httpx.Client, session_id: str, body: dict[str, Any], approved: bool,
             reason: str = "") -> httpx.Response:
    assert body["status"] == "awaiting_approval", body
    return client.post(f"/v1/sessions/{session_id}/approve",
                       json={"request_id": body["approval"]["request_id"], "approved": approved, "reason": reason})


def test_a_session_names_its_logs_and_an_unknown_one_is_a_one_line_404(client: httpx.Client, root: Path) -> None:
    session_id = session(client)
    shown = client.get(f"/v1/sessions/{session_id}").json()
    assert shown["logs"] == [str((root / "app" / "app.jsonl").resolve())] and shown["planner"] == "rules"
    missing = client.get("/v1/sessions/nope")
    assert missing.status_code == 404 and set(missing.json()) == {"error"} and "\n" not in missing.json()["error"]
    assert client.get("/v1/runs/nope").status_code == 404
    assert client.delete(f"/v1/sessions/{session_id}").json() == {"status": "closed"}
    assert client.get(f"/v1/sessions/{session_id}").status_code == 404


def test_a_run_streams_its_steps_and_its_result_is_the_clis(client: httpx.Client, root: Path) -> None:
    session_id = session(client)
    run_id = ask(client, session_id, "how many errors?")
    events = _events(client, run_id)
    names = [name for name, _ in events]
    assert names[0] == "status" and names[-1] == "done" and names.count("step") >= 2
    steps = [data for name, data in events if name == "step"]
    assert [s["iteration"] for s in steps] == list(range(1, len(steps) + 1))
    assert steps[-1]["action"] == "finalize_answer" and all({"action", "params", "observation"} <= set(s) for s in steps)
    body = wait(client, run_id)
    assert body["status"] == "done" and body["stop_reason"] == "stop" and body["verified"]
    cli = subprocess.run([sys.executable, "-m", "react_engine", "ask", "how many errors?", str(root / "app"),
                          "--planner", "rules", "--json", "--no-trace"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "REACT_ENGINE_CONFIG": os.devnull})
    expected = json.loads(cli.stdout)
    assert (body["answer"], body["value"], body["verified"]) == (expected["answer"], expected["value"],
                                                                 expected["verified"])
    assert [s["action"] for s in body["steps"]] == [s["action"] for s in expected["steps"]]
    assert events[-1][1]["answer"] == body["answer"]
    resumed = client.get(f"/v1/runs/{run_id}/events", headers={"Last-Event-ID": "1"}).text
    assert resumed.startswith("id: 2\n") and resumed.count("event: ") == len(events) - 2


def test_a_follow_up_asks_of_the_last_answers_rows(client: httpx.Client) -> None:
    session_id = session(client)
    first = wait(client, ask(client, session_id, "how many errors?"))
    of_those = wait(client, ask(client, session_id, "how many of those are from user alice?"))
    all_alice = wait(client, ask(client, session_id, "how many lines are from user alice?"))  # not a follow-up
    assert first["value"] == 156 and of_those["stop_reason"] == "stop"
    assert 0 < of_those["value"] < all_alice["value"]


def test_a_changed_log_is_loaded_again_and_the_others_stay_warm(client: httpx.Client, root: Path) -> None:
    session_id = session(client)
    assert wait(client, ask(client, session_id, "how many errors?"))["value"] == 156
    log = root / "app" / "app.jsonl"
    with log.open("a") as out:
        out.write('{"ts":"2026-11-20T16:00:00.000Z","level":"ERROR","logger":"api","msg":"late failure"}\n')
    assert wait(client, ask(client, session_id, "how many errors?"))["value"] == 157
    assert client.get("/v1/health").json()["frames"] == 1  # the new load replaced the old one


def test_an_approved_export_is_written_under_the_root(client: httpx.Client, root: Path) -> None:
    session_id = session(client)
    run_id = ask(client, session_id, "export errors to errors.csv")
    body = wait(client, run_id)
    approval = body["approval"]
    assert approval["tool_name"] == "export_results" and approval["parameters"] == {"path": "errors.csv",
                                                                                   "format": "csv"}
    assert "approval" in approval["tool_description"] and not (root / "errors.csv").exists()
    answered = _approve(client, session_id, body, True, "looks right")
    assert answered.json() == {"status": "approved", "run_id": run_id}
    done = wait(client, run_id)
    assert done["status"] == "done" and done["verified"] and done["value"]["rows"] == 156
    assert done["approvals"] == [{"request_id": approval["request_id"], "tool_name": "export_results",
                                  "approved": True, "reason": "looks right"}]
    assert len((root / "errors.csv").read_text().splitlines()) == 157  # a header and the 156 error lines
    again = _approve(client, session_id, body, True)
    assert again.status_code == 404 and "error" in again.json()


def test_a_rejected_export_writes_nothing_and_says_so(client: httpx.Client, root: Path) -> None:
    session_id = session(client)
    run_id = ask(client, session_id, "save the lines mentioning timeout to t.jsonl")
    rejected = _approve(client, session_id, wait(client, run_id), False, "not now")
    assert rejected.json()["status"] == "rejected"
    done = wait(client, run_id)
    assert done["status"] == "done" and not done["verified"] and "t.jsonl" in done["answer"]
    assert "not approved" in done["answer"] and done["approvals"][0]["reason"] == "not now"
    assert not (root / "t.jsonl").exists()


def test_two_approvals_in_one_run(client: httpx.Client, root: Path) -> None:
    session_id = session(client)
    run_id = ask(client, session_id, "write errors to a.csv and b.jsonl")
    first = wait(client, run_id)
    assert first["approval"]["parameters"]["path"] == "a.csv"
    _approve(client, session_id, first, True)
    second = wait(client, run_id)
    assert second["approval"]["parameters"] == {"path": "b.jsonl", "format": "jsonl"}
    assert second["approval"]["request_id"] != first["approval"]["request_id"]
    _approve(client, session_id, second, False)
    done = wait(client, run_id)
    assert [a["approved"] for a in done["approvals"]] == [True, False]
    assert (root / "a.csv").exists() and not (root / "b.jsonl").exists()
    assert "b.jsonl" in done["answer"] and "156" in done["answer"]


def test_an_unanswered_approval_stops_the_run_with_its_own_reason(root: Path) -> None:
    with running([root], approval_timeout=0.5) as base, httpx.Client(base_url=base, timeout=30) as client:
        session_id = session(client)
        run_id = ask(client, session_id, "export errors to late.csv")
        waiting = wait(client, run_id)
        assert waiting["status"] == "awaiting_approval"
        done = client.get(f"/v1/runs/{run_id}", params={"wait": 10}).json()
        while done["status"] == "awaiting_approval":
            done = client.get(f"/v1/runs/{run_id}", params={"wait": 10}).json()
        assert done["status"] == "done" and done["stop_reason"] == "approval_timeout"
        assert "0.5s" in done["message"] and done["hint"]
        late = _approve(client, session_id, waiting, True)
        assert late.status_code in (404, 409) and not (root / "late.csv").exists()


def test_a_cancelled_run_stops_while_it_waits_and_in_the_queue(root: Path) -> None:
    with running([root], approval_timeout=30, max_runs=1) as base, httpx.Client(base_url=base, timeout=30) as client:
        session_id = session(client)
        waiting = ask(client, session_id, "export errors to never.csv")
        assert wait(client, waiting)["status"] == "awaiting_approval"
        queued = ask(client, session_id, "how many errors?")  # the only worker is busy: it waits in the queue
        assert client.get(f"/v1/runs/{queued}").json().get("queued") is True
        assert client.post(f"/v1/runs/{queued}/cancel", json={}).json() == {"status": "cancelling"}
        assert client.post(f"/v1/runs/{waiting}/cancel", json={}).json() == {"status": "cancelling"}
        for run_id in (waiting, queued):
            done = wait(client, run_id)
            assert done["status"] == "done" and done["stop_reason"] == "cancelled", done
        assert client.post(f"/v1/runs/{waiting}/cancel", json={}).json() == {"status": "done"}
        assert not (root / "never.csv").exists()
        assert wait(client, ask(client, session_id, "how many errors?"))["value"] == 156  # the worker is free again


def test_paths_outside_the_roots_are_refused_symlinks_included(client: httpx.Client, root: Path,
                                                               tmp_path: Path) -> None:
    outside = tmp_path / "secret.log"
    outside.write_text("2026-11-19T10:00:00Z ERROR secret\n")
    (root / "link.log").symlink_to(outside)
    (root / "folder").mkdir()
    (root / "folder" / "inner.log").symlink_to(outside)
    for logs in (["../secret.log"], [str(outside)], ["link.log"], ["/etc/passwd"], ["app", "../*.log"]):
        reply = client.post("/v1/sessions", json={"logs": logs})
        assert reply.status_code == 403, (logs, reply.text)
        assert "outside" in reply.json()["error"]
    reply = client.post("/v1/sessions", json={"logs": ["folder"]})  # a folder whose only file leads out of it
    assert reply.status_code == 400 and "secret" not in reply.text.replace("inner", "")
    escaped = client.post("/v1/sessions", json={"logs": ["app"], "output_dir": ".."})
    assert escaped.status_code == 403
    session_id = session(client)
    body = wait(client, ask(client, session_id, "export errors to ../escaped.csv"))
    _approve(client, session_id, body, True)
    done = wait(client, body["run_id"])
    assert not done["verified"] and not (tmp_path / "escaped.csv").exists()


def test_bodies_and_questions_over_the_limits_are_refused(root: Path) -> None:
    with running([root], max_body_bytes=2048, max_question_chars=500) as base, httpx.Client(base_url=base, timeout=30) as client:
        big = client.post("/v1/sessions", json={"logs": ["app"] * 1000})
        assert big.status_code == 413 and "limit" in big.json()["error"]
        chunked = client.post("/v1/sessions", headers={"Content-Type": "application/json"},
                              content=iter([b'{"logs": [', b'"app", ' * 500, b'"app"]}']))
        assert chunked.status_code == 413
        session_id = session(client)
        long = client.post(f"/v1/sessions/{session_id}/ask", json={"question": "how many errors " * 120})
        assert long.status_code == 400 and "limit" in long.json()["error"]
        empty = client.post(f"/v1/sessions/{session_id}/ask", json={"question": "  "})
        assert empty.status_code == 400
        form = client.post(f"/v1/sessions/{session_id}/ask", data={"question": "how many errors?"})
        assert form.status_code == 415
        broken = client.post("/v1/sessions", headers={"Content-Type": "application/json"}, content=b'{"logs": [')
        assert broken.status_code == 422 and "not valid JSON" in broken.json()["error"]
        wrong = client.post(f"/v1/sessions/{session_id}/ask", json={"questoin": "x"})
        assert wrong.status_code == 422 and wrong.json()["error"].startswith("question")
        rebound = client.get("/v1/health", headers={"Host": "evil.example:8765"})
        assert rebound.status_code == 421


def test_twenty_clients_at_once_get_the_same_answers(root: Path) -> None:
    questions = ["how many errors?", "how many lines are from user alice?", "export errors to e.csv"]
    with running([root], max_runs=2) as base:
        with httpx.Client(base_url=base, timeout=60) as client:
            shared = session(client)
            expected = [wait(client, ask(client, shared, q))["answer"] for q in questions[:2]]
        failures: list[str] = []

        def one(n: int) -> None:
            with httpx.Client(base_url=base, timeout=60) as http:
                session_id = shared if n % 2 else session(http)
                for question, answer in zip(questions, expected):
                    body = wait(http, ask(http, session_id, question), 60)
                    if body.get("answer") != answer:
                        failures.append(f"{n}: {question}: {body.get('answer')}")

        threads = [threading.Thread(target=one, args=(n,)) for n in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not failures and not any(t.is_alive() for t in threads)
        with httpx.Client(base_url=base) as client:
            health = client.get("/v1/health").json()
        assert health["frames"] == 1  # eleven sessions over the same file share one frame


def test_a_token_guards_the_api_and_a_public_bind_needs_one(root: Path) -> None:
    with running([root], token="s3cret") as base, httpx.Client(base_url=base, timeout=30) as client:
        assert client.get("/v1/health").status_code == 401
        assert client.get("/v1/health", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert client.get("/v1/health", headers={"Authorization": "Bearer s3cret"}).json()["status"] == "ok"
        assert client.get("/v1/health", params={"token": "s3cret"}).status_code == 200
        assert client.get("/").status_code == 200  # the page itself, which asks for the token
    refused = subprocess.run([sys.executable, "-m", "react_engine", "serve", "--host", "0.0.0.0", "--root", str(root)],
                             capture_output=True, text=True, timeout=60,
                             env={**os.environ, "REACT_ENGINE_TOKEN": "", "REACT_ENGINE_CONFIG": os.devnull})
    assert refused.returncode == 1 and "--token" in refused.stderr and "Traceback" not in refused.stderr


def test_the_api_is_described_in_openapi(client: httpx.Client) -> None:
    paths = client.get("/v1/openapi.json").json()["paths"]
    assert {"/v1/sessions", "/v1/sessions/{session_id}/ask", "/v1/sessions/{session_id}/approve",
            "/v1/runs/{run_id}", "/v1/runs/{run_id}/events", "/v1/runs/{run_id}/cancel"} <= set(paths)
    assert client.get("/docs").status_code == 404  # no page that loads scripts from elsewhere


def test_traces_are_listed_and_shown_and_only_by_name(root: Path, tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    with running([root], trace=True, trace_dir=str(traces)) as base, httpx.Client(base_url=base, timeout=30) as client:
        session_id = session(client)
        asked = wait(client, ask(client, session_id, "how many errors?"))
        listed = client.get("/v1/traces").json()
        assert len(listed) == 1 and listed[0]["question"] == "how many errors?"
        assert Path(asked["trace_file"]).name == listed[0]["name"]
        shown = client.get(f"/v1/traces/{listed[0]['name']}").json()
        assert shown["answer"] == asked["answer"] and [r["action"] for r in shown["rows"]] == \
            [s["action"] for s in asked["steps"]]
        replayed = client.post(f"/v1/traces/{listed[0]['name']}/replay", json={}).json()
        assert replayed["identical"] and replayed["replayed"]["answer"] == asked["answer"]
        assert client.get("/v1/traces/..%2F..%2Fetc%2Fpasswd").status_code in (400, 404)
        assert client.get("/v1/traces/nothing-like-it").status_code == 400


def test_an_idle_session_makes_room_and_a_bad_time_anchor_is_refused(root: Path) -> None:
    with running([root], max_sessions=2) as base, httpx.Client(base_url=base, timeout=30) as client:
        first, second = session(client), session(client)
        client.get(f"/v1/sessions/{first}")  # the first is now the most recently used
        third = session(client)
        assert client.get(f"/v1/sessions/{second}").status_code == 404
        assert {client.get(f"/v1/sessions/{s}").status_code for s in (first, third)} == {200}
        bad = client.post("/v1/sessions", json={"logs": ["app"], "now": "yesterday-ish"})
        assert bad.status_code == 400 and "now" in bad.json()["error"]


def test_ctrl_c_stops_the_server_at_once_while_a_run_waits_for_an_approval(root: Path) -> None:
    import signal
    import time

    from serve_server import free_port

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "react_engine", "serve", "--root", str(root), "--port", str(port),
                               "--no-trace"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "REACT_ENGINE_CONFIG": os.devnull})
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for _ in range(300):
                try:
                    client.get("/v1/health")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            run_id = ask(client, session(client), "export errors to never.csv")
            assert wait(client, run_id)["status"] == "awaiting_approval"
            with client.stream("GET", f"/v1/runs/{run_id}/events") as stream:
                lines = stream.iter_lines()
                assert next(lines) == "id: 0"
                began = time.monotonic()
                server.send_signal(signal.SIGINT)
                rest = list(lines)
            assert any('"stop_reason": "cancelled"' in line for line in rest)
        _, err = server.communicate(timeout=20)
        assert time.monotonic() - began < 10 and server.returncode == 130
        assert "Traceback" not in err and not (root / "never.csv").exists()
    finally:
        server.kill()
