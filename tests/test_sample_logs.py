"""The bundled samples are exactly what the seeded generator writes, and its ground truth adds up."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SAMPLES = ROOT / "sample_logs"


def _generator():
    if "generate_sample_logs" in sys.modules:
        return sys.modules["generate_sample_logs"]
    spec = importlib.util.spec_from_file_location("generate_sample_logs", ROOT / "scripts" / "generate_sample_logs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def truth() -> dict:
    return json.loads((SAMPLES / "ground_truth.json").read_text(encoding="utf-8"))


def test_regenerating_gives_the_committed_bytes(tmp_path: Path) -> None:
    gen = _generator()
    written = gen.write(*gen.generate(gen.SEED), tmp_path)
    assert written
    for path in written:
        rel = path.relative_to(tmp_path)
        assert path.read_bytes() == (SAMPLES / rel).read_bytes(), f"{rel} differs: rerun the generator"
    committed = {p.relative_to(SAMPLES) for p in SAMPLES.rglob("*") if p.is_file()}
    assert committed == {p.relative_to(tmp_path) for p in written}


def test_another_seed_gives_other_logs() -> None:
    gen = _generator()
    first, _ = gen.generate(1)
    second, _ = gen.generate(2)
    assert [e.text for e in first] != [e.text for e in second]


def test_ground_truth_line_counts_match_the_files(truth: dict) -> None:
    for rel, info in truth["files"].items():
        text = (SAMPLES / rel).read_text(encoding="utf-8")
        assert text.endswith("\n")
        assert info["lines"] == text.count("\n"), rel


def test_set_totals_add_up(truth: dict) -> None:
    for name, s in truth["sets"].items():
        assert s["rows"] == sum(truth["files"][p]["lines"] for p in s["paths"]), name
        assert s["rows"] == sum(s["hourly"].values()) + s["untimed"], name
        assert sum(s["by_level_raw"].values()) in (0, s["rows"]), name
        assert s["windows"]["last_15m"]["rows"] <= s["windows"]["last_1h"]["rows"] <= s["windows"]["last_6h"]["rows"]
        assert s["windows"]["last_24h"]["rows"] == s["rows"] - s["untimed"], name


def test_cmts_sample_has_a_recent_outage_on_mawed07t01(truth: dict) -> None:
    cmts = truth["sets"]["cmts"]
    host = cmts["hosts"]["MAWED07T01"]
    assert cmts["now"] == truth["files"]["cmts/MAWED07T01.log"]["last"]
    assert host["last_1h"]["unique_modems"]["t3_timeout"] >= 20
    assert cmts["modems_in_both_notations"] >= 100
    assert sum(cmts["by_kind"].values()) == cmts["rows"]
    assert 200 <= cmts["unique_modems"]["any"] <= 500


def test_syslog_lines_have_no_year_but_the_truth_names_it(truth: dict) -> None:
    first = (SAMPLES / "syslog" / "messages").read_text(encoding="utf-8").splitlines()[0]
    assert "2026" not in first
    assert truth["generator"]["year"] == 2026
