"""scripts/compare_modelfiles.py against the stand-in Ollama server: two Modelfiles, one question set."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from counting_planner import reply

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("compare_modelfiles", ROOT / "scripts" / "compare_modelfiles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_two_modelfiles_answer_the_same_questions_and_differences_are_counted(tmp_path, fake_ollama, capsys,
                                                                              monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    log = tmp_path / "app.log"
    log.write_text("".join(f"2026-11-20T10:00:{n:02d}Z web app: {'ERROR' if n < 4 else 'INFO'} x\n" for n in range(9)))
    queries = tmp_path / "q.txt"
    queries.write_text("how many lines?\n")
    fake_ollama.push(reply("get_log_count"), reply("finalize_answer", answer="9 lines", value=9),  # qwen3:4b
                     reply("finalize_answer", answer="8 lines", value=8))  # llama3.1:8b guesses
    module = _script()
    frames = module.FrameCache()
    results = [module.run(ROOT / "modelfiles" / name, queries, [str(log)], tmp_path / "out", frames, fake_ollama.host)
               for name in ("qwen3-4b.Modelfile", "llama3.1-8b.Modelfile")]
    assert [json.loads(p.read_text())["value"] for p in results] == [9, 8]
    assert module.compare(*results) == 1
    shown = capsys.readouterr().out
    assert "qwen3-4b: 1/1 answered and verified" in shown and "llama3.1-8b: 0/1 answered and verified" in shown
    assert len(list((tmp_path / "data" / "react-engine" / "traces").iterdir())) == 2
