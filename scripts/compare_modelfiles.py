"""Compare two Modelfiles on one question set, through the Python API.

Each Modelfile's answers go to their own resumable results file (`OUT/<modelfile stem>.jsonl`, as
`react-engine batch` writes them), then the two are compared question by question: value, stop reason,
verified, steps, model time and tokens.

    python scripts/compare_modelfiles.py QUERIES LOGS... --a modelfiles/qwen3-4b.Modelfile \\
        --b modelfiles/qwen3-8b.Modelfile [--out compare-out] [--year 2026] [--host 127.0.0.1:11434]

QUERIES is a text (one question per line), JSONL or YAML question file, as for `react-engine batch`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from react_engine.app.batches import load_queries, run_batch
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.loop.frames import FrameCache
from react_engine.planners.factory import PlannerSpec, make_advisor, make_planner
from react_engine.tracing import default_trace_dir, open_tracer


def run(modelfile: Path, queries: Path, logs: list[str], out: Path, frames: FrameCache, host: str | None) -> Path:
    """Answer every question under `modelfile`; returns the results file."""
    planner, notice = make_planner(PlannerSpec(kind="ollama", modelfile=modelfile, host=host))
    if notice:
        print(notice)
    results = out / f"{modelfile.stem}.jsonl"
    engine = Engine(planner, tracer_factory=lambda: open_tracer(default_trace_dir()), advisor=make_advisor())
    try:
        summary = run_batch(engine, load_queries(queries), results, logs=logs, frames=frames)
    finally:
        planner.close()
    print(f"{modelfile.name}: {summary.written} answered now, {summary.skipped} earlier; {summary.counts}")
    return results


def _load(path: Path) -> dict[str, dict]:
    return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def _line(label: str, r: dict) -> str:
    s = r["statistics"]
    return (f"  {label}: {r['stop_reason']:<10} value={json.dumps(r['value'])[:40]:<40} "
            f"{'verified' if r['verified'] else 'unverified':<10} steps={s['iterations']:<2} "
            f"llm={s['llm_duration_seconds']:.1f}s tokens={s['prompt_tokens_total']}+{s['completion_tokens_total']}")


def compare(a: Path, b: Path) -> int:
    """Print the per-question comparison; returns how many questions got different answers."""
    left, right = _load(a), _load(b)
    differ = 0
    for qid, ra in left.items():
        rb = right.get(qid)
        if rb is None:
            continue
        same = ra["value"] == rb["value"] and ra["stop_reason"] == rb["stop_reason"]
        differ += not same
        print(f"{'=' if same else '≠'} {qid}: {ra['query']}")
        print(_line(a.stem, ra))
        print(_line(b.stem, rb))
    for label, rows in ((a.stem, left), (b.stem, right)):
        answered = sum(r["stop_reason"] == "stop" and r["verified"] for r in rows.values())
        seconds = sum(r["statistics"]["llm_duration_seconds"] for r in rows.values())
        print(f"{label}: {answered}/{len(rows)} answered and verified, {seconds:.1f}s of model time")
    print(f"{differ} of {len(left.keys() & right.keys())} questions answered differently")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("queries", type=Path)
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--a", type=Path, required=True, help="first Modelfile")
    parser.add_argument("--b", type=Path, required=True, help="second Modelfile")
    parser.add_argument("--out", type=Path, default=Path("compare-out"))
    parser.add_argument("--year", type=int, default=None, help="year for log lines that carry none")
    parser.add_argument("--host", default=None, help="Ollama server (default: OLLAMA_HOST)")
    args = parser.parse_args()
    frames = FrameCache(LoadOptions(year=args.year))  # both runs share the loaded logs
    results = [run(m, args.queries, args.logs, args.out, frames, args.host) for m in (args.a, args.b)]
    compare(*results)


if __name__ == "__main__":
    main()
