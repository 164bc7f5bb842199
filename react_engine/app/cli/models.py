"""`react-engine models`: the bundled Modelfiles and the models installed in Ollama."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import httpx
import ollama
import pydantic

from react_engine.app.cli.terminal import note, out
from react_engine.errors import PlannerError, PlannerServerError
from react_engine.planners.modelfile import BUNDLED_DIR, Modelfile, bundled
from react_engine.planners.ollama import host_url, normalise_error
from react_engine.rows.bounded import Overdue, within


def _client(ctx: click.Context) -> tuple[ollama.Client, str]:
    url = host_url(ctx.obj["host"])
    return ollama.Client(host=url, timeout=ctx.obj["timeout"]), url


def _call(url: str, model: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run one client call, turning its failures into one-line errors."""
    try:
        return fn(*args, **kwargs)
    except (ollama.ResponseError, ConnectionError, httpx.HTTPError, pydantic.ValidationError, ValueError) as exc:
        raise normalise_error(exc, url, model) from None


def _quick(ctx: click.Context, url: str, model: str, fn: Any, *args: Any) -> Any:
    """`_call` for a question the server answers at once (list, show), given up after --request-timeout in all:
    a server that drips its reply a byte at a time never keeps the command waiting longer."""
    timeout = ctx.obj["timeout"]
    try:
        return within(lambda: _call(url, model, fn, *args), timeout, "ollama-models")
    except Overdue:
        raise PlannerServerError(f"the server at {url} did not answer within {timeout:g}s: check that OLLAMA_HOST "
                                 "(--host) points at Ollama, or raise --request-timeout") from None


def created_name(path: Path) -> str:
    """The default name `models create` gives a Modelfile's model: `react-<file stem>`."""
    return f"react-{path.stem.lower()}"


@click.group("models")
@click.option("--host", envvar="OLLAMA_HOST", help="Ollama server [env OLLAMA_HOST; default 127.0.0.1:11434]")
@click.option("--request-timeout", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True)
@click.pass_context
def models_group(ctx: click.Context, host: str | None, request_timeout: float) -> None:
    """Bundled Modelfiles and the models installed in Ollama.

    \b
    Example:
      react-engine models list
    """
    ctx.obj = {"host": host, "timeout": request_timeout}


@models_group.command("list")
@click.pass_context
def list_models(ctx: click.Context) -> None:
    """List the bundled Modelfiles and the installed models, marking which bundled ones are ready; with Ollama
    unreachable, the bundled ones and a notice (exit 0).

    \b
    Example:
      OLLAMA_HOST=gpu-box:11434 react-engine models list
    """
    client, url = _client(ctx)
    try:
        installed, error = {m.model for m in _quick(ctx, url, "", client.list).models}, None
    except PlannerError as exc:
        installed, error = None, exc
    out(f"Bundled Modelfiles ({BUNDLED_DIR}):")
    for path in bundled():
        out(f"  {path.name:<22} {_status(path, installed)}")
    if error is not None:  # the bundled list is still an answer: say why the installed models are missing
        note(f"installed models unknown: {error}")
        return
    out(f"Installed in Ollama at {url}:")
    for name in sorted(installed or ()):
        out(f"  {name}")


def _status(path: Path, installed: set[str] | None) -> str:
    """`FROM model` and, when the server answered, whether the base and the created model exist."""
    base = Modelfile.read(path).model
    if installed is None:
        return f"FROM {base}"
    created = created_name(path)
    made = "created" if {created, f"{created}:latest"} & installed else "not created"
    have = "installed" if {base, f"{base}:latest"} & installed else f"missing: `ollama pull {base}`"
    return f"FROM {base} ({have}); {created}: {made}"


@models_group.command("create")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", help="name of the new model [default: react-<file stem>]")
@click.pass_context
def create_model(ctx: click.Context, path: Path, name: str | None) -> None:
    """Create a model in Ollama from the Modelfile at PATH.

    \b
    Example:
      react-engine models create modelfiles/qwen3-4b.Modelfile --name react-qwen3
    """
    client, url = _client(ctx)
    modelfile = Modelfile.read(path)
    name = name or created_name(path)
    kwargs = modelfile.to_create_kwargs(name)
    for status in _call(url, modelfile.model, lambda: [p.status for p in client.create(stream=True, **kwargs)]):
        note(f"  {status}")
    out(f"created {name} from {modelfile.model}: use it with --model {name}")


@models_group.command("show")
@click.argument("name")
@click.pass_context
def show_model(ctx: click.Context, name: str) -> None:
    """Show an installed model's family, size, context length, capabilities and parameters.

    \b
    Example:
      react-engine models show qwen3:4b
    """
    client, url = _client(ctx)
    info = _quick(ctx, url, name, client.show, name)
    details = info.details
    context = next((v for k, v in (info.modelinfo or {}).items() if k.endswith(".context_length")), None)
    out(name)
    if details:
        out(f"  family        {details.family}")
        out(f"  size          {details.parameter_size} ({details.quantization_level})")
    if context:
        out(f"  context       {context} tokens")
    if info.capabilities:
        out(f"  capabilities  {', '.join(info.capabilities)}")
    for line in (info.parameters or "").splitlines():
        out(f"  parameter     {' '.join(line.split())}")


COMMANDS = [models_group]
