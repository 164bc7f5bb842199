"""`react-engine config show|path`, and the config file's values as the commands' defaults."""

from __future__ import annotations

import json
from typing import Any

import click

from react_engine.app.cli.terminal import out
from react_engine.app.userconfig import ENV, Config, config_path, load_file, sources
from react_engine.contract.redaction import redacted_url

# config key -> the click parameter it is the default of
PARAMS: dict[str, str] = {"planner": "planner_kind", "model": "model", "modelfile": "modelfile", "host": "host",
                          "base_url": "base_url", "trace_dir": "trace_dir", "output": "output", "dask": "dask_address"}
# what a setting without a value means
UNSET: dict[str, str] = {"modelfile": "none", "base_url": "none: needed by --planner openai",
                         "dask": "none: pandas in this process", "trace_keep": "all", "trace_max_age_days": "no limit"}
SERVERS = ("host", "base_url", "dask")  # the settings that name a server, shown redacted
COMMANDS_WITH_DEFAULTS = ("ask", "chat", "batch", "eval", "replay", "models")


def default_map(config: Config) -> dict[str, dict[str, Any]]:
    """click's `default_map`: the file's values below flags and environment variables (click's own order)."""
    values = {PARAMS[key]: value for key, value in config.model_dump().items() if key in PARAMS and value is not None}
    return {name: dict(values) for name in COMMANDS_WITH_DEFAULTS}


@click.group("config")
def config_group() -> None:
    """Show the configuration: flags override environment variables, which override the config file.

    \b
    Example:
      react-engine config show
    """


@config_group.command("path")
def path_command() -> None:
    """Print where the config file is read from (it need not exist).

    \b
    Example:
      ${EDITOR:-vi} "$(react-engine config path)"
    """
    out(str(config_path()))


@config_group.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
def show_command(as_json: bool) -> None:
    """Print every setting, its effective value and where it comes from (env NAME, file, default).

    \b
    Example:
      REACT_ENGINE_PLANNER=rules react-engine config show
    """
    load_file()  # a broken file is reported as such, with its path
    effective = {key: (_shown(key, value), source) for key, (value, source) in sources().items()}
    if as_json:
        out(json.dumps({"path": str(config_path()), "settings": {k: {"value": v, "source": s}
                                                                  for k, (v, s) in effective.items()}}, indent=2))
        return
    path = config_path()
    out(f"# {path}" + ("" if path.exists() else " (not found: defaults apply)") + "; a command's flags override these")
    shown = {key: json.dumps(value) if value is not None else f"({UNSET[key]})"
             for key, (value, _) in effective.items()}
    width = max(map(len, shown.values()))
    for key, (_, source) in effective.items():
        out(f"{key:<19} {shown[key]:<{width}}  {source:<30} env {ENV[key]}")


def _shown(key: str, value: Any) -> Any:
    """A setting as shown: a server's URL or host without the credentials it may hold."""
    return redacted_url(value) if key in SERVERS and isinstance(value, str) else value


COMMANDS = [config_group]
