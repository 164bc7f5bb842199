"""Credentials in a server's URL (a user and password, a secret-looking query parameter) never reach stderr, a
trace or `config show`, for the OpenAI-compatible base_url, ANTHROPIC_BASE_URL and the Ollama host."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.app.cli import main
from react_engine.contract.redaction import redacted_url, redacted_urls

ROOT = Path(__file__).resolve().parents[1]
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"
SECRETS = ("Pw0rd9xq", "Kk3y7zzt", "T0k3nAbC")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _url(port: int) -> str:
    return f"http://admin:{SECRETS[0]}@127.0.0.1:{port}/v1?api_key={SECRETS[1]}&model=m&token={SECRETS[2]}"


def _leaks(*texts: str) -> list[str]:
    return [s for s in SECRETS if any(s in t for t in texts)]


@pytest.fixture(autouse=True)
def _isolated(cli_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "127.0.0.1:9")


def _ask(tmp_path: Path, *flags: str) -> tuple[str, str]:
    """stdout and stderr and the trace files' text of one `ask` against a server that is down."""
    traces = tmp_path / "traces"
    result = CliRunner().invoke(main, ["ask", "how many lines?", str(SYSLOG), "--no-cache", "-v", "--timeout", "30",
                                       "--trace-dir", str(traces), *flags])
    trace = "".join(p.read_text() for p in traces.glob("*.json"))
    assert trace and result.exit_code == 1, result.output  # a planner named on the command line that cannot be
    # reached ends the run with one error line (which names the server, redacted)
    return result.stdout + result.stderr, trace


def test_an_openai_base_url_is_redacted_on_stderr_and_in_the_trace(tmp_path: Path) -> None:
    port = _closed_port()
    printed, trace = _ask(tmp_path, "--planner", "openai", "--model", "m", "--base-url", _url(port))
    assert not _leaks(printed, trace)
    assert f"http://***@127.0.0.1:{port}/v1?api_key=***" in printed  # still says which server it was
    assert "127.0.0.1" in trace


def test_an_anthropic_base_url_is_redacted_on_stderr_and_in_the_trace(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("anthropic")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "not-a-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", _url(_closed_port()))
    printed, trace = _ask(tmp_path, "--planner", "anthropic", "--model", "m")
    assert not _leaks(printed, trace) and "Anthropic at http://***@127.0.0.1" in printed


def test_an_ollama_host_is_redacted_on_stderr_and_in_the_trace(tmp_path: Path) -> None:
    port = _closed_port()
    printed, trace = _ask(tmp_path, "--planner", "ollama", "--host", _url(port).replace("/v1", ""))
    assert not _leaks(printed, trace) and f"127.0.0.1:{port}" in printed


def test_config_show_prints_server_urls_without_their_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", _url(8080))
    monkeypatch.setenv("OLLAMA_HOST", f"ollama:{SECRETS[2]}@gpu-box:11434")
    text = CliRunner().invoke(main, ["config", "show"]).stdout
    shown = json.loads(CliRunner().invoke(main, ["config", "show", "--json"]).stdout)["settings"]
    assert not _leaks(text, json.dumps(shown))
    assert shown["base_url"]["value"] == "http://***@127.0.0.1:8080/v1?api_key=***&model=m&token=***"
    assert shown["host"]["value"] == "***@gpu-box:11434" and "gpu-box:11434" in text


_SECRET = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-._~%", min_size=6, max_size=20).map("S3c".__add__)


@settings(max_examples=200, deadline=None)
@given(user=_SECRET, password=_SECRET, value=_SECRET,
       name=st.sampled_from(["api_key", "key", "token", "access_token", "password", "secret", "client_secret",
                             "X-Amz-Signature", "auth", "sig"]),
       scheme=st.sampled_from(["http", "https"]), path=st.sampled_from(["", "/", "/v1", "/api/v1/"]))
def test_redaction_hides_userinfo_and_secret_parameters(user: str, password: str, value: str, name: str,
                                                       scheme: str, path: str) -> None:
    url = f"{scheme}://{user}:{password}@host.example:8080{path}?model=m&{name}={value}&n=2"
    shown = redacted_url(url)
    assert password not in shown and user not in shown and value not in shown
    assert shown == f"{scheme}://***@host.example:8080{path}?model=m&{name}=***&n=2"
    assert redacted_urls(f"the server at {url}: fix it.") == f"the server at {shown}: fix it."
    assert redacted_url(f"{scheme}://host.example:8080{path}?model=m") == f"{scheme}://host.example:8080{path}?model=m"
