#!/usr/bin/env python3
"""Warm asks over HTTP (`react-engine serve`) against the same questions through the CLI, lnav and DuckDB.

    python scripts/bench_serve.py [--ssh-repeat 500] [--stack-repeat 250] [--asks 20] [--cli-runs 3]

Builds the loghub OpenSSH sample repeated (500 times: 1M lines) and the OpenStack sample repeated (250 times:
500k lines) in a temp dir, starts `react-engine serve` on 127.0.0.1 over it, opens one session per file (the
first load, which also writes the parse cache) and asks each question `--asks` times over HTTP (POST ask, then
GET the run with ?wait=: the wall time a script sees). The CLI asks the same question of the cached file in a
fresh process each time; lnav (when installed) counts with its SQL; DuckDB (when `import duckdb` works) reads the
raw text cold each time. Wall seconds are reported (the p50 of the runs); the server's answers must be the CLI's.
A warm server keeps what a search found (its mask, the rows it kept), so the count is also asked once each of texts
not searched before (`NEW_COUNTS`): their p50 is the "new" column.
With `--soak SECONDS`, `--clients` clients (20) then ask both questions over and over for that long, half in one
shared session and half in one each, and the server's resident memory is sampled every second: errors, answers
that differ from the CLI's, and the memory after the first quarter (the warm-up) and at the end are printed.
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ingest import REAL_LOGS, engine_command, environment

COUNT = 'How many lines contain "Failed password"?'
NEW_COUNTS = [f'How many lines contain "{text}"?' for text in (
    "Invalid user", "authentication failure", "Received disconnect", "check pass", "reverse mapping",
    "Connection closed", "Did not receive identification", "POSSIBLE BREAK-IN", "preauth", "Bye Bye", "port 22",
    "Accepted password")]
"""Count questions of texts not searched before in the session's warm frame: no search mask or rows kept yet."""
P95 = "what is the p95 of time?"
DUCK_COUNT = "SELECT count(*) FROM read_csv('{path}', columns={{'line': 'VARCHAR'}}, delim='\\x01', quote='', " \
             "escape='', header=false, auto_detect=false, strict_mode=false) WHERE line LIKE '%Failed password%'"
DUCK_P95 = "SELECT quantile_cont(CAST(regexp_extract(line, 'time: ([0-9.]+)', 1) AS DOUBLE), 0.95) FROM " \
           "read_csv('{path}', columns={{'line': 'VARCHAR'}}, delim='\\x01', quote='', escape='', header=false, auto_detect=false, strict_mode=false) " \
           "WHERE regexp_matches(line, 'time: [0-9.]+')"


def repeated(sample: Path, times: int, target: Path) -> Path:
    if not sample.is_file():
        raise SystemExit(f"{sample}: the loghub sample is missing; pass --real-logs DIR (one folder per system)")
    data = sample.read_bytes()
    data += b"" if data.endswith(b"\n") else b"\n"
    with target.open("wb") as out:
        for _ in range(times):
            out.write(data)
    return target


def wall(fn: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    out = fn()
    return time.perf_counter() - began, out


def serve(root: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([*engine_command(), "serve", "--root", str(root), "--port", str(port), "--no-trace"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(base + "/v1/health", timeout=1)
            return server, base
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def http_asks(client: httpx.Client, path: Path, question: str, asks: int,
              new: list[str]) -> tuple[float, list[float], list[float], dict]:
    """The session's first load (seconds), each warm ask's wall seconds, those of each of the `new` questions
    (asked once each), and the last result of `question`."""
    load, made = wall(lambda: client.post("/v1/sessions", json={"logs": [path.name]}, timeout=600).json())
    if "id" not in made:
        raise SystemExit(f"session: {made}")

    def one(asked: str = question) -> dict:
        run = client.post(f"/v1/sessions/{made['id']}/ask", json={"question": asked}).json()
        return client.get(f"/v1/runs/{run['run_id']}", params={"wait": 60}, timeout=120).json()

    one()  # the first run of a question builds its plan and reads its field; measured: the warm ones
    times, result = [], {}
    for _ in range(asks):
        seconds, result = wall(one)
        times.append(seconds)
    return load, times, [wall(functools.partial(one, asked))[0] for asked in new], result


def cli_asks(path: Path, question: str, runs: int, env: dict[str, str]) -> tuple[list[float], dict]:
    command = [*engine_command(), "ask", question, str(path), "--planner", "rules", "--no-trace", "--json"]
    subprocess.run(command, env=env, capture_output=True, check=False)  # the cache is written by the server's load
    times, result = [], {}
    for _ in range(runs):
        seconds, done = wall(lambda: subprocess.run(command, env=env, capture_output=True, check=False))
        times.append(seconds)
        result = json.loads(done.stdout)
    return times, result


def duck(sql: str, path: Path, runs: int) -> list[float] | None:
    try:
        import duckdb
    except ImportError:
        return None
    times = []
    for _ in range(runs):
        seconds, _ = wall(lambda: duckdb.connect().execute(sql.format(path=path)).fetchall())
        times.append(seconds)
    return times


def lnav_count(path: Path, runs: int, env: dict[str, str], home: Path) -> list[float] | None:
    lnav = shutil.which("lnav")
    if lnav is None:
        return None
    query = ";SELECT count(*) AS n FROM syslog_log WHERE log_body LIKE '%Failed password%'"
    return [wall(lambda: subprocess.run([lnav, "-n", "-c", query, str(path)], env={**env, "HOME": str(home)},
                                        capture_output=True, check=False))[0] for _ in range(runs)]


def rss(pid: int) -> int:
    """The process's resident memory in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def soak(base: str, pid: int, asks: list[tuple[str, str, str]], clients: int, seconds: float) -> None:
    """`clients` threads asking `asks` (file, question, the CLI's answer) until `seconds` pass."""
    import threading

    with httpx.Client(base_url=base, timeout=120) as client:
        shared = {name: client.post("/v1/sessions", json={"logs": [name]}).json()["id"] for name, _, _ in asks}
    stop, errors, done, memory = time.monotonic() + seconds, [], [0], []

    def one(n: int) -> None:
        with httpx.Client(base_url=base, timeout=120) as http:
            own = shared if n % 2 else {name: http.post("/v1/sessions", json={"logs": [name]}).json()["id"]
                                        for name, _, _ in asks}
            while time.monotonic() < stop:
                for name, question, expected in asks:
                    try:
                        run = http.post(f"/v1/sessions/{own[name]}/ask", json={"question": question}).json()
                        body = http.get(f"/v1/runs/{run['run_id']}", params={"wait": 60}).json()
                    except (httpx.HTTPError, KeyError) as exc:
                        errors.append(f"{type(exc).__name__}: {exc}")
                        continue
                    done[0] += 1
                    if body.get("answer") != expected:
                        errors.append(f"{question}: {body.get('answer') or body.get('error')}")

    threads = [threading.Thread(target=one, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads):
        memory.append(rss(pid))
        time.sleep(1)
    warm = memory[len(memory) // 4] if memory else 0
    print(f"soak: {clients} clients, {seconds:g}s, {done[0]} answers, {len(errors)} errors"
          + (f" (first: {errors[0]})" if errors else "")
          + f"; server memory {warm / 1e6:.0f} MB after warm-up, {memory[-1] / 1e6:.0f} MB at the end, "
            f"peak {max(memory) / 1e6:.0f} MB")


def p50(times: list[float] | None) -> str:
    return f"{statistics.median(times):.3f}" if times else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ssh-repeat", type=int, default=500, help="OpenSSH 2k sample copies (500: 1M lines)")
    parser.add_argument("--stack-repeat", type=int, default=250, help="OpenStack 2k sample copies (250: 500k lines)")
    parser.add_argument("--asks", type=int, default=20, help="warm asks over HTTP per question")
    parser.add_argument("--cli-runs", type=int, default=3, help="CLI, lnav and DuckDB runs per question")
    parser.add_argument("--soak", type=float, default=0, metavar="SECONDS", help="then ask with many clients")
    parser.add_argument("--clients", type=int, default=20, help="clients of the soak")
    parser.add_argument("--real-logs", type=Path, default=REAL_LOGS, help="the loghub samples' folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "logs").mkdir()
        ssh = repeated(args.real_logs / "OpenSSH" / "OpenSSH_2k.log", args.ssh_repeat, work / "logs" / "ssh.log")
        stack = repeated(args.real_logs / "OpenStack" / "OpenStack_2k.log", args.stack_repeat,
                         work / "logs" / "stack.log")
        env = environment(work)
        server, base = serve(work / "logs", env)
        rows = []
        try:
            with httpx.Client(base_url=base, timeout=60) as client:
                for path, question, sql in ((ssh, COUNT, DUCK_COUNT), (stack, P95, DUCK_P95)):
                    load, times, new, served = http_asks(client, path, question, args.asks,
                                                         NEW_COUNTS if question == COUNT else [])
                    cli, expected = cli_asks(path, question, args.cli_runs, env)
                    same = (served.get("answer"), served.get("value")) == (expected["answer"], expected["value"])
                    ducked = duck(sql, path, args.cli_runs)
                    lnav = lnav_count(path, args.cli_runs, env, work) if question == COUNT else None
                    rows.append((path.name, question, load, times, new, cli, ducked, lnav, same, served.get("answer")))
                    steps = ", ".join(f"{s['action']} {s['tool_ms']:.0f}/{s['duration_ms']:.0f} ms"
                                      for s in served.get("steps", []))
                    print(f"{path.name}: the last run took {served['statistics']['execution_time_seconds']:.3f} s "
                          f"in the engine (tool/step: {steps})")
            if args.soak:
                expected = [(path.name, question, answer) for (name, question, *_, answer), path in
                            zip(rows, (ssh, stack))]
                soak(base, server.pid, expected, args.clients, args.soak)
        finally:
            server.terminate()
            server.wait(10)
    print(f"{'file':10} {'question':44} {'load':>6} {'http p50':>8} {'http p95':>8} {'new p50':>7} {'cli p50':>7} "
          f"{'duckdb':>7} {'lnav':>6} {'x duck':>6}  same as CLI")
    for name, question, load, times, new, cli, ducked, lnav, same, answer in rows:
        ratio = f"{statistics.median(times) / statistics.median(ducked):.2f}" if ducked else "-"
        high = sorted(times)[max(0, int(len(times) * 0.95) - 1)]
        print(f"{name:10} {question:44} {load:6.2f} {statistics.median(times):8.3f} {high:8.3f} {p50(new):>7} "
              f"{p50(cli):>7} {p50(ducked):>7} {p50(lnav):>6} {ratio:>6}  {same}  ({answer})")


if __name__ == "__main__":
    main()
