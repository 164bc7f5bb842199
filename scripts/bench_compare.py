#!/usr/bin/env python3
"""react-engine against the tools people already have, as ratios: `grep -c`, lnav's headless SQL and DuckDB.

    python scripts/bench_compare.py [--runs 3] [--ssh-repeat 500] [--openstack-repeat 250]

Builds two logs from the loghub samples (OpenSSH repeated to 1M lines, OpenStack to 500k lines) and asks of each,
in fresh processes with the rules planner, a question every tool can answer:

- OpenSSH: how many lines hold "Failed password" (`grep -c`, lnav `SELECT count(*) ... LIKE`, DuckDB
  `count(*) ... LIKE` over the raw lines read with `read_csv`);
- OpenStack: the 95th percentile of the response time (`time: N` in each request line): DuckDB `quantile_cont` of
  `regexp_extract` over the raw lines (process start and `import duckdb` included).

react-engine is timed twice per round: the first ask (an empty cache: it parses and writes the cache) and the
cached ask. A round runs every command of a question once, one right after another, so a drift in the machine's
speed slows them alike; each figure is the median over the rounds of wall seconds, CPU seconds (user + system) and
peak RSS, and each ratio (wall time, then CPU time) is taken within a round, then its median shown. It also checks
that react-engine's answers hold the value DuckDB computes. lnav is skipped (said so) when not installed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench_ingest import REAL_LOGS, Run, engine_command, environment, run

SSH_QUESTION = 'How many lines contain "Failed password"?'
P95_QUESTION = "What is the 95th percentile of the response time?"
DUCKDB_LINES = ("read_csv('{path}', columns={{'line': 'VARCHAR'}}, delim=chr(1), header=false, quote='', "
                "escape='', auto_detect=false, strict_mode=false)")
DUCKDB_COUNT = "SELECT count(*) FROM {lines} WHERE line LIKE '%Failed password%'"
DUCKDB_P95 = ("SELECT quantile_cont(TRY_CAST(NULLIF(regexp_extract(line, 'time: ([0-9.]+)', 1), '') AS DOUBLE), "
              "0.95) FROM {lines}")


@dataclass(frozen=True)
class Case:
    """One log and its question, the commands answering it, and which of them is react-engine's."""

    name: str
    path: Path
    question: str
    anchors: dict[str, list[str]]


def build(sample: Path, repeat: int, directory: Path) -> Path:
    """`sample` repeated `repeat` times (a line end, as the sample writes them, added where it lacks a last one)."""
    data = sample.read_bytes()
    if not data.endswith(b"\n"):
        data += b"\r\n" if b"\r\n" in data else b"\n"
    path = directory / f"{sample.stem}_x{repeat}.log"
    with path.open("wb") as handle:
        for _ in range(repeat):
            handle.write(data)
    return path


def duckdb(query: str, path: Path) -> list[str]:
    sql = query.format(lines=DUCKDB_LINES.format(path=path))
    return [sys.executable, "-c", f"import duckdb; print(duckdb.sql({sql!r}).fetchall()[0][0])"]


def cases(work: Path, ssh_repeat: int, openstack_repeat: int) -> list[Case]:
    ssh = build(REAL_LOGS / "OpenSSH" / "OpenSSH_2k.log", ssh_repeat, work)
    stack = build(REAL_LOGS / "OpenStack" / "OpenStack_2k.log", openstack_repeat, work)
    ssh_anchors = {"grep -c": ["grep", "-c", "Failed password", str(ssh)],
                   "duckdb": duckdb(DUCKDB_COUNT, ssh)}
    if lnav := shutil.which("lnav"):
        query = ";SELECT count(*) AS n FROM syslog_log WHERE log_body LIKE '%Failed password%'"
        ssh_anchors["lnav"] = [lnav, "-n", "-c", query, str(ssh)]
    else:
        print("lnav is not installed (apt-get install lnav): its ratios are skipped")
    return [Case("OpenSSH count", ssh, SSH_QUESTION, ssh_anchors),
            Case("OpenStack p95", stack, P95_QUESTION, {"duckdb": duckdb(DUCKDB_P95, stack)})]


def round_of(case: Case, work: Path) -> dict[str, Run]:
    """Every command of `case` once: the anchors, then react-engine's first ask (empty cache) and cached ask."""
    shutil.rmtree(work / "cache", ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)  # lnav's HOME: without one it writes its configuration in the cwd
    env = environment(work)
    ask = [*engine_command(), "ask", case.question, str(case.path), "--planner", "rules", "--no-trace"]
    runs = {name: run(command, {**env, "HOME": str(work)}) for name, command in case.anchors.items()}
    runs["first ask"] = run(ask, env)
    runs["cached ask"] = run(ask, env)
    return runs


def numbers(text: str) -> list[float]:
    """The numbers written in `text` (thousands separated by commas or not)."""
    return [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)]


def _answer(output: str, anchor: bool) -> str:
    """What a command answered: react-engine's first line, a tool's last (lnav heads its table with a name)."""
    lines = output.splitlines() or [""]
    return lines[-1] if anchor else lines[0]


def _ratio(rounds: list[dict[str, Run]], name: str, anchor: str, measure: str) -> float:
    """The median over the rounds of `name`'s wall or CPU seconds against `anchor`'s in the same round."""
    return statistics.median(getattr(r[name], measure) / max(getattr(r[anchor], measure), 1e-3) for r in rounds)


def report(case: Case, rounds: list[dict[str, Run]], size: int) -> None:
    print(f"\n{case.name}: {case.path.name}, {size / 1e6:.0f} MB, {len(rounds)} rounds (medians)")
    names = list(rounds[0])
    anchors = list(case.anchors)
    header = "".join(f"{'x ' + a:>14}" for a in anchors)
    print(f"{'command':12}{'wall s':>8}{'CPU s':>8}{'peak MB':>9}{header}  output  (ratios: wall / CPU)")
    for name in names:
        wall = statistics.median(r[name].wall for r in rounds)
        cpu = statistics.median(r[name].cpu for r in rounds)
        rss = statistics.median(r[name].rss for r in rounds)
        ratios = "".join(f"{_ratio(rounds, name, a, 'wall'):>7.2f} /{_ratio(rounds, name, a, 'cpu'):5.2f}"
                         for a in anchors)
        answer = _answer(rounds[-1][name].output, name in anchors)[:50]
        print(f"{name:12}{wall:8.2f}{cpu:8.2f}{rss / 2**20:9.0f}{ratios}  {answer}")
    theirs = numbers(_answer(rounds[-1]["duckdb"].output, True))[-1]
    same = all(theirs in numbers(_answer(r[ask].output, False)) for r in rounds for ask in ("first ask", "cached ask"))
    print(f"react-engine's answer holds DuckDB's value ({theirs:g}): {'yes' if same else 'NO'}; "
          f"peak memory of the first ask {statistics.median(r['first ask'].rss for r in rounds) / size:.2f}x the file")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds; the median of each figure is shown")
    parser.add_argument("--ssh-repeat", type=int, default=500, help="copies of the 2000-line OpenSSH sample")
    parser.add_argument("--openstack-repeat", type=int, default=250, help="copies of the 2000-line OpenStack sample")
    args = parser.parse_args()
    if not (REAL_LOGS / "OpenSSH").is_dir():
        print(f"skipped: the loghub samples are not in {REAL_LOGS} (set LOGHUB_SAMPLES to their folder)")
        return
    try:
        import duckdb as _  # noqa: F401  (the comparison needs it, react-engine does not)
    except ImportError:
        raise SystemExit("pip install duckdb: the comparison runs DuckDB") from None
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for case in cases(work, args.ssh_repeat, args.openstack_repeat):
            rounds = [round_of(case, work / f"{case.name}-{i}".replace(" ", "-")) for i in range(args.runs)]
            report(case, rounds, case.path.stat().st_size)
    print(f"\nload average: {load:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
