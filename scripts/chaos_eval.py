"""Chaos measurement: the evaluation suite with a share of the rules planner's replies damaged.

Every case whose clean run passes and asks the planner at least once is run `--runs` times, each with its own
seed, through `ChaosPlanner(RulesPlanner(), rate, seed)`. Prints the share of runs that still pass with a normal
stop (the bar is 95%), the stop reasons, the corruptions applied and the failed runs.

    python scripts/chaos_eval.py [--suite evals/sample_suite.yaml] [--runs 20] [--rate 0.3] [--seed 0]
                                 [--kinds fence,repeat,...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from react_engine.app.evaluation.scoring import score
from react_engine.app.evaluation.suite import Case, Suite, load_suite
from react_engine.contract.planner import Planner
from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.loop.frames import FrameCache
from react_engine.planners.chaos import CORRUPTIONS, ChaosPlanner
from react_engine.planners.rules import RulesPlanner

SUITE = Path(__file__).resolve().parents[1] / "evals" / "sample_suite.yaml"


@dataclass
class Outcome:
    """Runs, passes, stop reasons, corruptions applied and the failed runs as (case id, seed, failures)."""

    runs: int = 0
    passed: int = 0
    stop_reasons: Counter = field(default_factory=Counter)
    corruptions: Counter = field(default_factory=Counter)
    failed: list[tuple[str, int, str]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.passed / self.runs if self.runs else 0.0


def ask(case: Case, planner: Planner, frames: FrameCache, year: int | None) -> RunResult:
    engine = Engine(planner, advisor=RulesPlanner())
    return engine.ask(case.question, case.logs, frame=frames.get(case.logs), now=case.now,
                      load_options=LoadOptions(year=year))


def clean_cases(suite: Suite, frames: FrameCache) -> list[Case]:
    """The cases the undamaged rules planner passes, after asking it at least once."""
    kept = []
    for case in suite.cases:
        result = ask(case, RulesPlanner(), frames, suite.year)
        if score(case, result).passed and result.steps:
            kept.append(case)
    return kept


def measure(cases: list[Case], frames: FrameCache, *, year: int | None, runs: int, rate: float,
            seed: int = 0, kinds: Sequence[str] | None = None) -> Outcome:
    """Each case `runs` times with a damaged rules planner; the seed of run r of case i is seed + r * 1000 + i."""
    outcome = Outcome()
    for r in range(runs):
        for i, case in enumerate(cases):
            run_seed = seed + r * 1000 + i
            chaos = ChaosPlanner(RulesPlanner(), rate, run_seed, kinds)
            scenario = score(case, ask(case, chaos, frames, year))
            correct = scenario.passed and scenario.stop_reason == "stop"  # a partial answer is not a right one
            outcome.runs += 1
            outcome.passed += correct
            outcome.stop_reasons[scenario.stop_reason] += 1
            outcome.corruptions.update(k for k in chaos.applied if k)
            if not correct:
                outcome.failed.append((case.id, run_seed, "; ".join(scenario.failures) or scenario.answer))
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default=str(SUITE))
    parser.add_argument("--runs", type=int, default=20, help="runs per case, each with its own seed")
    parser.add_argument("--rate", type=float, default=0.3, help="share of replies damaged")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", default=None, help=f"comma-separated subset of: {', '.join(CORRUPTIONS)}")
    args = parser.parse_args(argv)
    suite = load_suite(args.suite)
    frames = FrameCache(LoadOptions(year=suite.year))
    cases = clean_cases(suite, frames)
    began = time.monotonic()
    outcome = measure(cases, frames, year=suite.year, runs=args.runs, rate=args.rate, seed=args.seed,
                      kinds=args.kinds.split(",") if args.kinds else None)
    elapsed = time.monotonic() - began
    print(f"{suite.name}: {len(cases)} of {len(suite.cases)} cases pass clean and ask the planner")
    print(f"chaos rate {args.rate:g}, {args.runs} seeds per case: {outcome.passed}/{outcome.runs} runs correct "
          f"({outcome.share:.1%}; bar 95%) in {elapsed:.1f}s")
    print("stop reasons: " + ", ".join(f"{k} {v}" for k, v in outcome.stop_reasons.most_common()))
    print("corruptions applied: " + ", ".join(f"{k} {v}" for k, v in sorted(outcome.corruptions.items())))
    for case_id, run_seed, why in outcome.failed[:20]:
        print(f"  failed {case_id} (seed {run_seed}): {why}")
    return 0 if outcome.share >= 0.95 else 1


if __name__ == "__main__":
    sys.exit(main())
