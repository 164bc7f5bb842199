"""Build the operator suites from the data, never from react-engine:

- evals/operator_suite.yaml: the public development set (scripts/operator_samples.py, scripts/operator_loghub.py);
- evals/operator_check.yaml: a second set, written separately (scripts/operator_check_samples.py,
  scripts/operator_check_loghub.py), that measures how well planner changes generalise; not used to tune the planner.

    python scripts/build_operator_suite.py [--suite NAME]   # needs ../shared/real_logs next to the repository

It prints the number of cases per phrasing class and per log. The test suite checks that each committed suite is
what this script derives (the loghub part only where ../shared/real_logs is present).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml
from operator_analytics import ANALYTICS
from operator_analytics_samples import ANALYTIC_SETS
from operator_check_analytics import CHECK_ANALYTICS
from operator_check_analytics_samples import CHECK_ANALYTIC_SETS
from operator_check_analytics_second import CHECK_ANALYTIC_SETS_AGAIN, CHECK_ANALYTICS_AGAIN
from operator_check_analytics_third import CHECK_ANALYTIC_SETS_THIRD, CHECK_ANALYTICS_THIRD
from operator_check_loghub import CHECK_SYSTEMS
from operator_check_samples import CHECK_SETS
from operator_data import LogData, Questions
from operator_investigate import INVESTIGATE
from operator_loghub import REAL_LOGS, SYSTEMS, loghub_cases
from operator_samples import SETS, Truth, sample_cases
from operator_thresholds import THRESHOLD_SETS, THRESHOLD_SYSTEMS

ROOT = Path(__file__).resolve().parents[1]
REAL = (ROOT / "evals" / REAL_LOGS).resolve()

RULES = """\
# How the expected values read a question:
# - A level word ("errors", "WARN lines", "FATAL entries") counts rows whose level, as the log writes it (word,
#   letter or syslog priority), is that level (ERROR, error, E, <27>; WARN, W; ...), except that "errors" are
#   error or worse (critical and fatal lines too) unless the level is written as the log writes it ("ERROR
#   lines"); otherwise never "at least"; a level the log never writes counts 0. On a log that writes no levels,
#   "errors" are the lines that say error, and a level word naming an event ("Cocoa scripting errors") means that
#   event's lines.
# - "X lines / X events / X count / X?", quoted or not, counts rows whose raw line contains X (any case).
# - "came from / logged by / written by X" counts rows whose host, program, component, thread or pid is X.
# - "which X ... most" and "top N X" rank X by rows; an expected ranking never has a tie at the places asked.
# - "unique / distinct / different X" counts distinct values of X among the matching rows.
# - Dates are calendar days of the log's own timestamps (UTC as written); "between A and B" is inclusive and B
#   takes A's date; "first/last N minutes" count from the oldest/newest timestamp; "today/yesterday" are
#   relative to the newest; no row sits within a second of any window bound.
# - Lines without a year take 2026 (the suite's year).
# - Honest zeros: the true answer is 0, and a correct run says nothing was found instead of inventing a number.
"""
ANALYTIC_RULES = """\
# Analytics classes (each value derived twice, from the structured CSV or parsed records and by regexes over the raw
# lines; a question whose two derivations differ is left out; numbers match within rel_tolerance, 0.01%):
# - statistic: mean/median/min/max/sum/pN of the numbers a message template carries (pN interpolates linearly
#   between ranks); a duration written with a unit is in seconds (`took 5 ms` is 0.005), a bare number or a field
#   whose name states its unit (`latency_ms`) as written, sizes in bytes.
#   By a key: {value of the key: the statistic}. The busiest hour (minute): a ranking [[bucket start, rows]], ISO
#   8601 UTC (refused on a tie). Per time bucket of lines ("average errors per hour", a rate): the statistic of how
#   many matching rows each bucket holds, over every bucket from the first matching row's to the last's, the empty
#   ones 0 (`timechart span=1h count | stats avg(count)`); buckets start on the clock (an hour's at :00).
# - first-last: {time, line} of the oldest (newest) matching row, ISO 8601 UTC; among rows of equal time, the first
#   (last) in the file.
# - duration: {seconds} from the oldest to the newest matching row; sessions: {count, mean_seconds, max_seconds} of
#   start -> end pairs per key (by key, then time, a start line directly followed by an end line).
# - gaps: {seconds, from, to} of the longest time between two consecutive timed rows (refused on a tie).
# - share: matching rows as a percentage of all lines.
# - comparison: [count of the first named, count of the second], over the named days or windows ([start, end)).
#   A ratio of A to B: A's rows divided by B's.
# - breakdown: {value of the first key: {value of the second: rows}}, empty cells left out; levels as written.
# - listing: the answer shows the `file:line` of each of the N newest matching rows (asked for the first N: the N
#   oldest; refused when the Nth and the next share a time).
"""


@dataclass(frozen=True)
class Suite:
    """One suite file: where it goes, what heads it, and the question catalogues it is built from."""

    name: str
    description: str
    intro: str
    samples: dict[str, Callable[[Truth, Questions, Path], None]]
    systems: dict[str, Callable[[LogData, Questions], None]]
    investigations: dict[str, Callable[[LogData, Questions], None]] | None = None
    analytics: dict[str, Callable[[LogData, Questions], None]] | None = None
    analytic_samples: dict[str, Callable[[Truth, Questions, Path], None]] | None = None

    @property
    def path(self) -> Path:
        return ROOT / "evals" / f"{self.name}.yaml"

    @property
    def header(self) -> str:
        return self.intro + "#\n" + RULES + (ANALYTIC_RULES if self.analytics else "")


def joined(*catalogues: dict[str, Callable[..., None]]) -> dict[str, Callable[..., None]]:
    """One catalogue asking, for each log, the questions of every catalogue that has it, in their order."""
    names = dict.fromkeys(name for catalogue in catalogues for name in catalogue)

    def asking(name: str) -> Callable[..., None]:
        return lambda *args: [catalogue[name](*args) for catalogue in catalogues if name in catalogue] and None

    return {name: asking(name) for name in names}


OPERATOR = Suite("operator_suite", "questions as operators type them, by phrasing class", """\
# Operator-style questions: terse, wordy, with typos, dates in words, rankings, "came from", honest zeros and
# plain ones, over sample_logs/ and the 16 loghub samples in ../shared/real_logs (cases over those require the
# files and are skipped where they are absent). Threshold questions (class threshold) count, share, average or
# rank the lines whose number passes a threshold ("took longer than 1 second", "status >= 500", "bigger than 40 KB");
# units convert (1 s = 1000 ms, 1 KB = 1024 bytes) and a line without the number never passes. Generated by
# scripts/build_operator_suite.py: do not edit by hand. Run: react-engine eval evals/operator_suite.yaml --planner
# rules --no-trace
""", SETS, SYSTEMS, INVESTIGATE, joined(ANALYTICS, THRESHOLD_SYSTEMS), joined(ANALYTIC_SETS, THRESHOLD_SETS))

CHECK = Suite("operator_check", "a second operator set, written separately, to measure how planner changes "
              "generalise; not used to tune the planner", """\
# A second set of operator-style questions, written separately from operator_suite.yaml (other events, entities
# and wordings, same phrasing classes), to measure how well planner changes generalise: do not tune the planner
# on it. Over sample_logs/ and the 16 loghub samples in ../shared/real_logs (cases over those require the files
# and are skipped where they are absent). Generated by scripts/build_operator_suite.py: do not edit by hand.
# Run: react-engine eval evals/operator_check.yaml --planner rules --no-trace
""", CHECK_SETS, CHECK_SYSTEMS, analytics=joined(CHECK_ANALYTICS, CHECK_ANALYTICS_AGAIN, CHECK_ANALYTICS_THIRD),
              analytic_samples=joined(CHECK_ANALYTIC_SETS, CHECK_ANALYTIC_SETS_AGAIN, CHECK_ANALYTIC_SETS_THIRD))

SUITES = {suite.name: suite for suite in (OPERATOR, CHECK)}


def build(real: Path | None, suite: Suite = OPERATOR, refused: list[str] | None = None) -> list[dict]:
    """Every case: sample-log cases, then loghub cases when `real` (the real_logs folder) is given, then the
    analytics cases (sample-log, then loghub). Questions whose readings disagree are left out and added to
    `refused`."""
    samples = ROOT / "sample_logs"
    cases = sample_cases(samples, suite.samples)
    analytic = sample_cases(samples, suite.analytic_samples or {}, refused)
    if real is None:
        return cases + analytic
    return (cases + loghub_cases(real, suite.systems) + loghub_cases(real, suite.investigations or {})
            + analytic + loghub_cases(real, suite.analytics or {}, refused))


def render(cases: list[dict], suite: Suite = OPERATOR) -> str:
    """The suite file: the header, the suite's settings, then one flow mapping per case."""
    settings = {"name": suite.name, "description": suite.description,
                "ground_truth": "../sample_logs/ground_truth.json", "year": 2026}
    lines = [suite.header + yaml.safe_dump(settings, sort_keys=False, width=112) + "cases:"]
    for case in cases:
        text = yaml.safe_dump(case, sort_keys=False, width=112, allow_unicode=True, default_flow_style=True)
        lines.append("  - " + text.strip().replace("\n", "\n    "))
    return "\n".join(lines) + "\n"


def _log(case: dict) -> str:
    return case.get("set") or Path(case["logs"][0]).parent.name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=sorted(SUITES), help="build only this suite (default: all)")
    args = parser.parse_args()
    if not REAL.is_dir():
        print(f"{REAL} is absent: the suites cover the loghub samples too; put them there and run again",
              file=sys.stderr)
        return 2
    for suite in [SUITES[args.suite]] if args.suite else SUITES.values():
        refused: list[str] = []
        cases = build(REAL, suite, refused)
        suite.path.write_text(render(cases, suite), encoding="utf-8")
        print(f"{suite.path}: {len(cases)} cases, {len(refused)} analytics questions refused")
        for why in refused:
            print(f"  refused {why[:160]}")
        for title, counts in (("class", Counter(c["class"] for c in cases)), ("log", Counter(map(_log, cases)))):
            print(f"  by {title}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
