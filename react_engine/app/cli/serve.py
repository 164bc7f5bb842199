"""`react-engine serve`: the HTTP API and page over logs under the given roots."""

from __future__ import annotations

import click

from react_engine.settings import Settings


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; anything but loopback needs --token.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: any free one).")
@click.option("--root", "roots", multiple=True, type=click.Path(file_okay=False),
              help="A folder whose logs may be read and written (repeatable; default: the current directory).")
@click.option("--token", default=None, envvar="REACT_ENGINE_TOKEN",
              help="Bearer token every API call must carry (required off loopback).")
@click.option("--max-runs", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Runs answered at once; more wait in a queue.")
@click.option("--max-queued", type=click.IntRange(0, 10_000), default=64, show_default=True,
              help="Runs waiting beyond --max-runs before new ones are refused (429).")
@click.option("--timeout", type=click.FloatRange(0, min_open=True),
              default=Settings.model_fields["timeout_seconds"].default, show_default=True, metavar="SECONDS",
              help="Seconds a question may take (time waiting for an approval not counted).")
@click.option("--approval-timeout", type=click.FloatRange(0, min_open=True), default=300.0, show_default=True,
              metavar="SECONDS", help="Seconds an approval waits for its answer before the run stops.")
@click.option("--memory", "memory_mb", type=click.IntRange(64), default=4096, show_default=True, metavar="MB",
              help="Memory the loaded logs may hold; the least recently used are dropped beyond it.")
@click.option("--max-body", type=click.IntRange(1024), default=64 * 1024, show_default=True, metavar="BYTES",
              help="Largest request body taken.")
@click.option("--trace-dir", type=click.Path(file_okay=False), default=None, envvar="REACT_ENGINE_TRACE_DIR",
              help="Where trace files go (default: the user data dir).")
@click.option("--no-trace", is_flag=True, help="Do not write trace files.")
def serve_command(host: str, port: int, roots: tuple[str, ...], token: str | None, max_runs: int, max_queued: int,
                  timeout: float, approval_timeout: float, memory_mb: int, max_body: int, trace_dir: str | None,
                  no_trace: bool) -> None:
    """Serve the HTTP API and a page over the logs under --root, kept loaded.

    The API is under /v1/ (described at /v1/openapi.json), the page at /.

    \b
    Example:
      react-engine serve --root /var/log
      curl -s localhost:8765/v1/sessions -H 'Content-Type: application/json' -d '{"logs": ["syslog"]}'
    """
    from react_engine.app.serve.launch_server import serve

    serve(host, port, roots, token=token, max_runs=max_runs, max_queued=max_queued, run_timeout=timeout,
          approval_timeout=approval_timeout, memory_budget_bytes=memory_mb * 1024 * 1024, max_body_bytes=max_body,
          trace_dir=trace_dir, trace=not no_trace)


COMMANDS = [serve_command]
