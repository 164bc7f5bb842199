"""The stand-in server speaks Ollama's shapes well enough for the official client, and runs as a script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import ollama
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "fake_ollama.py"


def test_the_client_accepts_every_endpoint(fake_ollama, fake_ollama_module):
    client = ollama.Client(host=fake_ollama.host, timeout=5)
    fake_ollama.push(fake_ollama_module.good({"a": 1}), {"content": "", "thinking": "t", "done_reason": "length"})
    assert json.loads(client.chat(model="qwen3:4b", messages=[{"role": "user", "content": "hi"}]).message.content)
    generated = client.generate(model="qwen3:4b", prompt="hi")
    assert (generated.response, generated.thinking, generated.done_reason) == ("", "t", "length")
    assert client.chat(model="qwen3:4b", messages=[]).done_reason == "load"  # warm-up, no reply consumed
    assert [m.model for m in client.list().models] == fake_ollama.models
    assert client.ps().models[0].context_length == 8192
    assert client.show("qwen3:4b").modelinfo["qwen3.context_length"] == 40960
    assert client.create(model="x", from_="qwen3:4b").status == "success"
    assert "x" in fake_ollama.models
    assert httpx.get(f"{fake_ollama.url}/api/version").json()["version"]


def test_exhausted_script_is_a_500(fake_ollama):
    client = ollama.Client(host=fake_ollama.host, timeout=5)
    with pytest.raises(ollama.ResponseError) as caught:
        client.chat(model="qwen3:4b", messages=[{"role": "user", "content": "hi"}])
    assert caught.value.status_code == 500 and "exhausted" in caught.value.error


def test_runs_as_a_script_with_a_reply_file(tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps({"models": ["gemma3:4b"], "replies": ["{\"action\": \"get_log_count\"}"]}))
    proc = subprocess.Popen([sys.executable, str(SCRIPT), "--port", "0", "--script", str(replies)],
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        banner = proc.stdout.readline()
        host = banner.split("OLLAMA_HOST=")[1].rstrip(")\n")
        client = ollama.Client(host=host, timeout=5)
        reply = client.chat(model="gemma3:4b", messages=[{"role": "user", "content": "q"}])
        assert json.loads(reply.message.content) == {"action": "get_log_count"}
    finally:
        proc.terminate()
        proc.wait(5)
