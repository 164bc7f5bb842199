"""Options shared by several commands, each bundle turned into one model.

- planner options (`ask`, `batch`, `eval`) into one `PlannerSpec`;
- load options (`ask`, `batch`, `eval`, `inspect`) into one `LoadOptions`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError

from react_engine.logs import format_names
from react_engine.logs.options import LoadOptions
from react_engine.planners.factory import KINDS, PlannerSpec


def _kind(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        return PlannerSpec(kind=value).kind
    except ValidationError:
        raise click.BadParameter(f"{value!r}: use one of {', '.join(KINDS)}") from None


_OPTIONS = [
    click.option(
        "--planner",
        "planner_kind",
        envvar="REACT_ENGINE_PLANNER",
        default="auto",
        show_default=True,
        callback=_kind,
        help="auto (a .gguf model: llamacpp; else Ollama if it answers, else rules), rules, ollama, openai, "
        "llamacpp, anthropic, or script:FILE (replies to replay)",
    ),
    click.option("--model", envvar="REACT_ENGINE_MODEL",
                 help="model name, e.g. qwen3:8b (default qwen3:4b, or the Modelfile's FROM), or PATH.gguf"),
    click.option(
        "--modelfile",
        envvar="REACT_ENGINE_MODELFILE",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="use this Modelfile's FROM, SYSTEM and PARAMETERs with every request (no `ollama create` needed)",
    ),
    click.option("--host", envvar="OLLAMA_HOST", help="Ollama server [env OLLAMA_HOST; default 127.0.0.1:11434]"),
    click.option("--think/--no-think", default=False, show_default=True, help="let thinking models reason first"),
    click.option("--base-url", envvar="OPENAI_BASE_URL", help="OpenAI-compatible server URL (--planner openai)"),
    click.option(
        "--request-timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=120.0,
        show_default=True,
        help="seconds to wait for one model reply",
    ),
    click.option("--num-ctx", type=click.IntRange(min=512), help="context window, overriding the Modelfile"),
    click.option("--strict-model", is_flag=True, envvar="REACT_ENGINE_STRICT_MODEL",
                 help="judge the model alone: no rules-planner answer when its run ends without a verified one"),
    click.option("--fallback", type=click.Choice(["rules", "none"]), default=None, envvar="REACT_ENGINE_FALLBACK",
                 help="rules: answer with the rules planner also when the named planner's server or model cannot be "
                      "had (by default that ends the run with the reason); none: as --strict-model"),
]


def planner_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the planner options to a click command; it receives them as one `planner_spec: PlannerSpec`."""

    @functools.wraps(command)
    def wrapper(
        *args: Any,
        planner_kind: str,
        model: str | None,
        modelfile: Path | None,
        host: str | None,
        think: bool,
        base_url: str | None,
        request_timeout: float,
        num_ctx: int | None,
        strict_model: bool,
        fallback: str | None,
        **kwargs: Any,
    ) -> Any:
        spec = PlannerSpec(
            kind=planner_kind,
            model=model,
            modelfile=modelfile,
            host=host,
            think=think,
            base_url=base_url,
            timeout=request_timeout,
            num_ctx=num_ctx,
            strict_model=strict_model,
            fallback=fallback,
        )
        return command(*args, planner_spec=spec, **kwargs)

    for option in reversed(_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


def _size(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Check a size option early, so a bad value is a usage error naming the option."""
    try:
        LoadOptions.model_validate({param.name: value} if value is not None else {})
    except ValidationError:
        raise click.BadParameter(f"{value!r} is not a size; use e.g. 500M, 2G or 8GiB") from None
    return value


def _known_format(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and value not in format_names():
        raise click.BadParameter(f"unknown format {value!r}; use one of: {', '.join(format_names())}")
    return value


def load_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the options on which files are read and how; the command receives them as `load_options: LoadOptions`."""

    @click.option("--format", "format_", default=None, metavar="NAME", callback=_known_format,
                  help=f"Force a log format: {', '.join(format_names())}.")
    @click.option("--year", type=int, default=None, help="Year for dates written without one (default: file mtime).")
    @click.option("--no-cache", "no_cache", is_flag=True, help="Do not read or write the parsed-frame cache.")
    @click.option("--glob", "glob_", multiple=True, metavar="PATTERN",
                  help="In folders, read only files matching PATTERN (e.g. '*.log', 'app/**/*.txt'); repeatable.")
    @click.option("--exclude", multiple=True, metavar="PATTERN",
                  help="In folders, leave out files matching PATTERN (e.g. '*.1.gz'); repeatable.")
    @click.option("--max-input-size", "max_input_size", default=None, metavar="SIZE", callback=_size,
                  help="Largest input once decompressed (default 4G).")
    @click.option("--max-ratio", type=click.FloatRange(min=1, min_open=True), default=None, metavar="N",
                  help="Largest decompression ratio before a file is refused as a bomb (default 200).")
    @click.option("--dask", "dask_address", envvar="REACT_ENGINE_DASK", default=None, metavar="ADDRESS",
                  help="Load the logs and run the tools on Dask: tcp://HOST:8786 (a running scheduler), local or "
                       "local:N (N worker processes here) [env REACT_ENGINE_DASK; needs pip install -e \".[dask]\"].")
    @click.option("--dask-spill", "dask_spill", envvar="REACT_ENGINE_DASK_SPILL", default=None, metavar="DIR",
                  help="With --dask, keep parsed rows that do not fit the workers' memory in DIR (a folder every "
                       "worker can write; default a temporary folder, removed at exit) [env REACT_ENGINE_DASK_SPILL].")
    @functools.wraps(command)
    def wrapper(*args: Any, format_: str | None, year: int | None, no_cache: bool, glob_: tuple[str, ...],
                exclude: tuple[str, ...], max_input_size: str | None, max_ratio: float | None,
                dask_address: str | None, dask_spill: str | None, **kwargs: Any) -> Any:
        limits = {"max_input_size": max_input_size, "max_ratio": max_ratio}
        options = LoadOptions(format=format_, year=year, use_cache=not no_cache, glob=glob_, exclude=exclude,
                              dask=dask_address or None, dask_spill=dask_spill or None,
                              **{name: value for name, value in limits.items() if value is not None})
        return command(*args, load_options=options, **kwargs)

    return wrapper
