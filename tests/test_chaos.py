"""The chaos planner, and the engine recovering from the ways small models damage their replies."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest

from react_engine import Engine
from react_engine.app.evaluation.suite import load_suite
from react_engine.contract.actions import parse_reply
from react_engine.contract.planner import PlannerReply, PlanRequest
from react_engine.loop.frames import FrameCache
from react_engine.planners.chaos import CORRUPTIONS, ChaosPlanner
from react_engine.planners.rules import RulesPlanner

ROOT = Path(__file__).resolve().parents[1]
QUESTION = 'How many "T3 time-out" lines are there on MAWED07T01 in the last hour?'
REPAIRABLE = ("fence", "prose", "think", "trailing_commas", "single_quotes", "truncated", "tool_arguments",
              "name_parameters")
COSTLY = ("intent", "repeat", "unknown_tool", "drop_param")


def _chaos_eval() -> ModuleType:
    spec = importlib.util.spec_from_file_location("chaos_eval", ROOT / "scripts" / "chaos_eval.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["chaos_eval"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def frame() -> pd.DataFrame:
    n = 240
    hosts = ["MAWED07T01", "MAWED07T02", "NYBRK03T01"]
    texts = ["T3 time-out on Cable5/0/1", "CM-STATUS event", "partial service"]
    raw = [f"<{i}> {hosts[i % 3]} {texts[i % 5 % 3]}" for i in range(n)]
    return pd.DataFrame({
        "timestamp": pd.date_range("2026-11-20T08:00", periods=n, freq="min", tz="UTC"),
        "severity": ["error" if i % 4 == 0 else "info" for i in range(n)],
        "level_raw": ["ERR" if i % 4 == 0 else "INFO" for i in range(n)],
        "host": [hosts[i % 3] for i in range(n)],
        "component": ["CMTS"] * n,
        "pid": [None] * n,
        "message": raw,
        "source": ["cmts.log"] * n,
        "line": list(range(1, n + 1)),
        "raw": raw,
    })


@pytest.fixture(autouse=True)
def private_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


class _DamageTurns(ChaosPlanner):
    """Damages exactly the given turns, each with one of `kinds`."""

    def __init__(self, kinds: list[str], turns: set[int]) -> None:
        super().__init__(RulesPlanner(), rate=1.0, seed=0, kinds=kinds)
        self.turns = turns

    def plan(self, request: PlanRequest) -> PlannerReply:
        self.rate = 1.0 if request.view.iteration in self.turns else 0.0
        return super().plan(request)


def test_rate_zero_sends_the_inner_replies_unchanged(frame) -> None:
    clean = Engine(RulesPlanner()).ask(QUESTION, frame=frame)
    chaos = ChaosPlanner(RulesPlanner(), rate=0.0, seed=7)
    result = Engine(chaos).ask(QUESTION, frame=frame)
    assert [s.reply for s in result.steps] == [s.reply for s in clean.steps]
    assert len(clean.steps) >= 3 and chaos.applied == [None] * len(clean.steps)
    assert result.value == clean.value


def test_the_same_seed_damages_the_same_way(frame) -> None:
    runs = []
    for _ in range(2):
        chaos = ChaosPlanner(RulesPlanner(), rate=0.7, seed=11)
        result = Engine(chaos).ask(QUESTION, frame=frame)
        runs.append(([s.reply for s in result.steps], chaos.applied))
    assert runs[0] == runs[1]
    assert any(runs[0][1])
    other = ChaosPlanner(RulesPlanner(), rate=0.7, seed=12)
    Engine(other).ask(QUESTION, frame=frame)
    assert other.applied != runs[0][1]


def test_rate_and_kinds_are_checked() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        ChaosPlanner(RulesPlanner(), rate=1.5, seed=0)
    with pytest.raises(ValueError, match="unknown corruptions"):
        ChaosPlanner(RulesPlanner(), rate=0.5, seed=0, kinds=["gibberish"])


@pytest.mark.parametrize("kind", REPAIRABLE)
def test_repairable_damage_parses_to_the_same_action(kind: str, frame) -> None:
    chaos = ChaosPlanner(RulesPlanner(), rate=1.0, seed=3, kinds=[kind])
    clean = Engine(RulesPlanner()).ask(QUESTION, frame=frame)
    result = Engine(chaos).ask(QUESTION, frame=frame)
    assert chaos.applied == [kind] * len(result.steps)
    assert all(s.reply != c.reply for s, c in zip(result.steps, clean.steps))  # every reply was damaged
    assert [(s.action, s.params) for s in result.steps] == [(c.action, c.params) for c in clean.steps]
    assert result.stop_reason == "stop" and result.value == clean.value and result.verified


@pytest.mark.parametrize("kind", COSTLY)
def test_costly_damage_costs_one_turn_and_the_plan_goes_on(kind: str, frame) -> None:
    clean = Engine(RulesPlanner()).ask(QUESTION, frame=frame)
    chaos = _DamageTurns([kind], {2, 4})
    result = Engine(chaos).ask(QUESTION, frame=frame)
    assert chaos.applied[1] == kind and chaos.applied[3] == kind
    kinds = [s.kind for s in result.steps]
    assert kinds[1] != "tool" and kinds[3] != "tool"  # nothing ran on a damaged turn
    assert [(s.action, s.params) for s in result.steps if s.kind == "tool"] == \
        [(c.action, c.params) for c in clean.steps if c.kind == "tool"]
    assert result.stop_reason == "stop" and result.value == clean.value and result.verified


def test_rules_planner_continues_after_an_invalid_reply_on_a_tool_name(frame) -> None:
    """An invalid reply naming a real tool is not a failed tool step: the plan must go on (regression)."""
    chaos = _DamageTurns(["drop_param"], {1})
    result = Engine(chaos).ask(QUESTION, frame=frame)
    assert result.steps[0].kind == "invalid_reply" and result.steps[0].action is not None
    assert result.steps[1].kind == "tool" and result.steps[1].action == result.steps[0].action
    assert result.stop_reason == "stop" and isinstance(result.value, int) and result.value > 0


def test_every_corruption_is_known_to_the_parser_or_the_engine() -> None:
    reply = json.dumps({"reasoning": "r", "action": "search_logs", "params": {"value": "T3", "regex": False}})
    chaos = ChaosPlanner(RulesPlanner(), rate=0.0, seed=0)
    chaos.previous = reply
    for kind in REPAIRABLE:
        damaged = parse_reply(CORRUPTIONS[kind](json.loads(reply), chaos))
        assert (damaged.action, damaged.params) == ("search_logs", {"value": "T3", "regex": False}), kind
    assert set(REPAIRABLE) | set(COSTLY) == set(CORRUPTIONS)


def test_bundled_questions_pass_in_95_percent_of_damaged_runs(sample_suite_frames: FrameCache) -> None:
    chaos_eval = _chaos_eval()
    suite = load_suite(ROOT / "evals" / "sample_suite.yaml")
    cases = chaos_eval.clean_cases(suite, sample_suite_frames)
    assert len(cases) >= 20
    outcome = chaos_eval.measure(cases, sample_suite_frames, year=suite.year, runs=2, rate=0.3, seed=100)
    assert sum(outcome.corruptions.values()) >= outcome.runs // 2  # the damage really happened
    assert outcome.share >= 0.95, outcome.failed
