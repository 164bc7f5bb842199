"""The evaluation report (JSON): summary, scenarios and regressions against a baseline report."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from react_engine.app.evaluation.scoring import DIMENSIONS, Scenario
from react_engine.errors import InputError

MAX_SCORE_DROP = 0.05  # a relative drop above this in any average score is flagged


class ClassSummary(BaseModel):
    """How the cases of one phrasing class fared: a wrong answer gave a wrong value, a refusal gave none."""

    cases: int
    passed: int
    accuracy: float
    wrong: int
    refused: int
    skipped: int = 0


class Summary(BaseModel):
    pass_rate: float
    total_scenarios: int  # the cases that ran (skipped ones are counted apart)
    passed: int
    avg_scores: dict[str, float | None]
    skipped: int = 0
    classes: dict[str, ClassSummary] = Field(default_factory=dict)  # by phrasing class, when cases name one


class ScoreDrop(BaseModel):
    dimension: str
    baseline: float
    current: float


class RegressionAnalysis(BaseModel):
    baseline: str | None = None
    regressions: list[str] = Field(default_factory=list)  # passed in the baseline, fail now
    improvements: list[str] = Field(default_factory=list)  # failed in the baseline, pass now
    score_drops: list[ScoreDrop] = Field(default_factory=list)
    new_cases: list[str] = Field(default_factory=list)
    missing_cases: list[str] = Field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.regressions or self.score_drops)


class Report(BaseModel):
    suite: str
    planner: str
    model: str | None = None
    deterministic: bool = False  # the planner's replies depend only on what it sees (replays must match)
    created: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    summary: Summary
    scenarios: list[Scenario]
    regression_analysis: RegressionAnalysis = Field(default_factory=RegressionAnalysis)


def _accuracy(passed: int, cases: int) -> float:
    return round(passed / cases, 4) if cases else 0.0


def by_class(scenarios: list[Scenario]) -> dict[str, ClassSummary]:
    """Cases, passes, wrong answers and refusals per phrasing class (cases without a class are left out)."""
    names = sorted({s.phrasing for s in scenarios if s.phrasing})
    return {name: _class_summary([s for s in scenarios if s.phrasing == name]) for name in names}


def _class_summary(group: list[Scenario]) -> ClassSummary:
    """Cases, passes, wrong answers and refusals of one class's cases."""
    ran = [s for s in group if s.outcome != "skipped"]
    passed = sum(s.passed for s in ran)
    return ClassSummary(cases=len(ran), passed=passed, accuracy=_accuracy(passed, len(ran)),
                        wrong=sum(s.outcome == "wrong" for s in ran), refused=sum(s.outcome == "refused" for s in ran),
                        skipped=len(group) - len(ran))


def summarize(scenarios: list[Scenario]) -> Summary:
    """Pass rate and the average of each dimension over the cases that ran, and the same per phrasing class."""
    ran = [s for s in scenarios if s.outcome != "skipped"]
    averages: dict[str, float | None] = {}
    for dimension in DIMENSIONS:
        values = [v for s in ran if (v := getattr(s.scores, dimension)) is not None]
        averages[dimension] = round(sum(values) / len(values), 4) if values else None
    passed = sum(s.passed for s in ran)
    return Summary(pass_rate=_accuracy(passed, len(ran)), total_scenarios=len(ran), passed=passed,
                   avg_scores=averages, skipped=len(scenarios) - len(ran), classes=by_class(scenarios))


def class_table(classes: dict[str, ClassSummary]) -> list[str]:
    """The per-class summary as aligned text lines, with a total row."""
    rows = [(name, c.cases, c.passed, c.accuracy, c.wrong, c.refused) for name, c in classes.items()]
    cases, passed = sum(r[1] for r in rows), sum(r[2] for r in rows)
    rows.append(("all", cases, passed, _accuracy(passed, cases), sum(r[4] for r in rows), sum(r[5] for r in rows)))
    lines = [f"{'class':<14} {'cases':>5} {'passed':>6} {'accuracy':>8} {'wrong':>5} {'refused':>7}"]
    lines += [f"{n:<14} {c:>5} {p:>6} {a:>8.1%} {w:>5} {r:>7}" for n, c, p, a, w, r in rows]
    return lines


def compare(current: Report, baseline: Report, baseline_path: str | None = None) -> RegressionAnalysis:
    """Cases that flipped between the baseline and now, and average scores that dropped by more than 5%.

    Skipped cases count as absent on their side.
    """
    before, now = _passed(baseline), _passed(current)
    return RegressionAnalysis(
        baseline=baseline_path,
        **_flips(before, now),
        score_drops=_score_drops(current, baseline),
        new_cases=[i for i in now if i not in before],
        missing_cases=[i for i in before if i not in now],
    )


def _flips(before: dict[str, bool], now: dict[str, bool]) -> dict[str, list[str]]:
    """The cases that passed before and fail now (regressions), and those that failed before and pass now."""
    return {"regressions": [i for i, ok in now.items() if before.get(i) and not ok],
            "improvements": [i for i, ok in now.items() if before.get(i) is False and ok]}


def _passed(report: Report) -> dict[str, bool]:
    """Whether each case that ran passed."""
    return {s.id: s.passed for s in report.scenarios if s.outcome != "skipped"}


def _score_drops(current: Report, baseline: Report) -> list[ScoreDrop]:
    """The average scores that dropped by more than `MAX_SCORE_DROP` of their baseline."""
    drops = []
    for dimension in DIMENSIONS:
        old, new = baseline.summary.avg_scores.get(dimension), current.summary.avg_scores.get(dimension)
        if old and new is not None and (old - new) / old > MAX_SCORE_DROP:
            drops.append(ScoreDrop(dimension=dimension, baseline=old, current=new))
    return drops


def build_report(suite: str, planner: str, model: str | None, scenarios: list[Scenario],
                 baseline: Report | None = None, baseline_path: str | None = None, *,
                 deterministic: bool = False) -> Report:
    report = Report(suite=suite, planner=planner, model=model, deterministic=deterministic,
                    summary=summarize(scenarios), scenarios=scenarios)
    if baseline is not None:
        report.regression_analysis = compare(report, baseline, baseline_path)
    return report


def load_report(path: str | Path) -> Report:
    """Read a saved report (e.g. a baseline)."""
    try:
        return Report.model_validate_json(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: baseline not found: create one with --save-baseline") from None
    except (OSError, ValidationError) as exc:
        raise InputError(f"{path}: not an evaluation report ({str(exc).splitlines()[0]}): "
                         "recreate it with --save-baseline") from None


def save_report(report: Report, path: str | Path) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(report.model_dump_json(indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write the report ({exc.strerror or exc}): pick a writable path") from None
