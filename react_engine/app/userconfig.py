"""User configuration: `$XDG_CONFIG_HOME/react-engine/config.toml`, under environment variables, under flags.

```toml
planner = "ollama"              # auto | rules | ollama | openai | script:FILE
model = "qwen3:8b"
modelfile = "~/modelfiles/qwen3-8b.Modelfile"
host = "gpu-box:11434"          # Ollama
base_url = "http://localhost:8080/v1"   # OpenAI-compatible server
trace_dir = "~/traces"
output = "text"                 # text | json | csv | table
dask = "tcp://scheduler:8786"
trace_keep = 200                # keep the newest 200 traces
trace_max_age_days = 30         # and none older than 30 days
```
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from react_engine.errors import InputError

APP = "react-engine"

# setting -> environment variable that overrides the file (a flag overrides both)
ENV: dict[str, str] = {
    "planner": "REACT_ENGINE_PLANNER",
    "model": "REACT_ENGINE_MODEL",
    "modelfile": "REACT_ENGINE_MODELFILE",
    "host": "OLLAMA_HOST",
    "base_url": "OPENAI_BASE_URL",
    "trace_dir": "REACT_ENGINE_TRACE_DIR",
    "output": "REACT_ENGINE_OUTPUT",
    "dask": "REACT_ENGINE_DASK",
    "trace_keep": "REACT_ENGINE_TRACE_KEEP",
    "trace_max_age_days": "REACT_ENGINE_TRACE_MAX_AGE_DAYS",
}


class Config(BaseModel):
    """Defaults for the command line; every field is optional."""

    model_config = ConfigDict(extra="forbid")

    planner: str | None = Field(None, description="auto | rules | ollama | openai | script:FILE")
    model: str | None = Field(None, description="model name, e.g. qwen3:8b")
    modelfile: str | None = Field(None, description="Modelfile whose FROM, SYSTEM and PARAMETERs are used")
    host: str | None = Field(None, description="Ollama server, e.g. 127.0.0.1:11434")
    base_url: str | None = Field(None, description="OpenAI-compatible server URL, e.g. http://localhost:8080/v1")
    trace_dir: str | None = Field(None, description="where run traces are written")
    output: Literal["text", "json", "csv", "table"] | None = Field(None, description="default --output")
    dask: str | None = Field(None, description="dask scheduler address")
    trace_keep: int | None = Field(None, ge=1, description="keep only this many newest traces")
    trace_max_age_days: float | None = Field(None, gt=0, description="delete traces older than this")

    @field_validator("modelfile", "trace_dir")
    @classmethod
    def _home(cls, value: str | None) -> str | None:
        return str(Path(value).expanduser()) if value else value


def config_path() -> Path:
    """`$REACT_ENGINE_CONFIG`, else `$XDG_CONFIG_HOME/react-engine/config.toml` (default `~/.config/...`)."""
    if explicit := os.environ.get("REACT_ENGINE_CONFIG"):
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP / "config.toml"


_WARNED: set[str] = set()


def _warn_once(text: str) -> None:
    if text not in _WARNED:
        _WARNED.add(text)
        print(text, file=sys.stderr)


def load_file(path: Path | None = None) -> Config:
    """The settings in the config file (all None when there is none); a bad file is a one-line `InputError`."""
    path = path or config_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Config()
    except NotADirectoryError:  # e.g. HOME=/dev/null: no config can be there, so none is
        _warn_once(f"warning: {path.parent} is not a folder: using the default settings")
        return Config()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{path}: cannot read the config ({exc}): fix it or move it away") from None
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(map(str, problem["loc"]))
        raise InputError(f"{path}: {where}: {problem['msg']}: see `react-engine config show` for the keys") from None


def _from_env() -> dict[str, str]:
    return {key: os.environ[name] for key, name in ENV.items() if os.environ.get(name)}


def load(path: Path | None = None) -> Config:
    """The file's settings with the environment's on top (flags are applied by the command line)."""
    merged = load_file(path).model_dump() | _from_env()
    try:
        return Config.model_validate(merged)
    except ValidationError as exc:
        problem = exc.errors()[0]
        name = ENV.get(str(problem["loc"][0]), str(problem["loc"][0]))
        raise InputError(f"{name}: {problem['msg']}: fix the environment variable or the config file") from None


def built_in() -> dict[str, object]:
    """The value each setting has when neither the file nor the environment sets it (None: not used)."""
    from react_engine.contract.planner import DEFAULT_MODEL
    from react_engine.tracing import default_trace_dir

    return {"planner": "auto", "model": DEFAULT_MODEL, "host": "127.0.0.1:11434",
            "trace_dir": str(default_trace_dir()), "output": "text"}


def sources(path: Path | None = None) -> dict[str, tuple[object, str]]:
    """Each setting's effective value and where it comes from: `env NAME`, `file`, or `default` (then the
    built-in value, None where there is none)."""
    file, env, merged, defaults = load_file(path), _from_env(), load(path), built_in()
    return {key: (getattr(merged, key), f"env {ENV[key]}") if key in env else
            (getattr(merged, key), "file") if getattr(file, key) is not None else (defaults.get(key), "default")
            for key in Config.model_fields}
