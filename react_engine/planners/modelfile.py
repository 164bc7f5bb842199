"""Ollama Modelfiles: parsed into a validated `Modelfile`, and turned into `client.create(...)` arguments.

Follows Ollama's own parser: instructions are case-insensitive and may come in any order, `#` starts a
comment only at the start of a line, a value is the rest of its line or a `"…"` / `\"\"\"…\"\"\"` string that
may span lines (no escapes), and a repeated `PARAMETER stop` accumulates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from react_engine.errors import InputError

INT_PARAMS = frozenset(
    {"num_keep", "seed", "num_predict", "top_k", "repeat_last_n", "num_ctx", "num_batch", "num_gpu",
     "main_gpu", "num_thread", "draft_num_predict"}
)  # fmt: skip
FLOAT_PARAMS = frozenset(
    {"top_p", "min_p", "typical_p", "temperature", "repeat_penalty", "presence_penalty", "frequency_penalty"}
)
BOOL_PARAMS = frozenset({"use_mmap"})
BUNDLED_DIR = Path(__file__).resolve().parents[1] / "modelfiles"  # also `modelfiles/` at the repository root
INSTRUCTIONS = ("from", "parameter", "system", "template", "message", "adapter", "license", "requires")

_LINE = re.compile(r"[ \t]*([A-Za-z]+)(?:[ \t]+(.*))?\Z", re.S)
_PARAM = re.compile(r"([A-Za-z0-9_]+)[ \t]+(.*)\Z", re.S)
_ROLE = re.compile(r"([A-Za-z]+)[ \t]+(.*)\Z", re.S)


class ModelfileError(InputError):
    """A Modelfile that cannot be used; the message names the file and line."""


class ModelfileMessage(BaseModel):
    role: Literal["system", "user", "assistant"]
    content: str


class Modelfile(BaseModel):
    """The instructions of one Modelfile."""

    model: str = Field(description="FROM: the base model")
    parameters: dict[str, Any] = Field(default_factory=dict)
    system: str | None = None
    template: str | None = None
    messages: list[ModelfileMessage] = Field(default_factory=list)
    adapters: list[str] = Field(default_factory=list)
    license: list[str] = Field(default_factory=list)
    requires: str | None = None

    @classmethod
    def read(cls, path: str | Path) -> Modelfile:
        """Parse the Modelfile at `path`."""
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise ModelfileError(f"{path}: cannot read the Modelfile ({exc.strerror}): check the path") from None
        return parse_modelfile(text, source=str(path))

    def to_create_kwargs(self, name: str) -> dict[str, Any]:
        """Keyword arguments for `ollama.Client.create` that build model `name` from this Modelfile."""
        if self.adapters:
            raise ModelfileError(f"{name}: ADAPTER needs a blob upload: create this model with `ollama create -f`")
        kwargs: dict[str, Any] = {
            "model": name,
            "from_": self.model,
            "system": self.system,
            "template": self.template,
            "parameters": self.parameters or None,
            "messages": [m.model_dump() for m in self.messages] or None,
            "license": self.license or None,
        }
        return {k: v for k, v in kwargs.items() if v is not None}


def bundled() -> list[Path]:
    """The Modelfiles shipped with the package, by name."""
    return sorted(BUNDLED_DIR.glob("*.Modelfile"))


def parse_modelfile(text: str, source: str = "Modelfile") -> Modelfile:
    """Parse Modelfile `text`; `source` names it in error messages."""
    fields: dict[str, Any] = {"parameters": {}, "messages": [], "adapters": [], "license": []}
    lines = re.split(r"\r\n|\r|\n", text)
    i = 0
    while i < len(lines):
        number, line = i + 1, lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue

        def fail(msg: str, at: int = number) -> ModelfileError:
            return ModelfileError(f"{source}:{at}: {msg}")

        name, key, rest = _instruction(line, fail)
        value, i = _value(rest, lines, i, fail)
        _add(fields, name, key, value, fail)
    if "model" not in fields:
        raise ModelfileError(f"{source}: no FROM line: add `FROM <model>`, e.g. `FROM qwen3:4b`")
    return Modelfile.model_validate(fields)


def _instruction(line: str, fail: Callable[..., ModelfileError]) -> tuple[str, str, str]:
    """The instruction of `line`, the name it sets (a PARAMETER's or a MESSAGE's role; else empty) and the rest."""
    match = _LINE.match(line)
    if not match or match.group(1).lower() not in INSTRUCTIONS:
        word = line.split()[0]
        raise fail(f"unknown instruction {word!r}: use one of {', '.join(s.upper() for s in INSTRUCTIONS)}")
    name, rest = match.group(1).lower(), (match.group(2) or "").lstrip()
    if not rest.strip():
        raise fail(f"{name.upper()} needs a value")
    if name not in ("parameter", "message"):
        return name, "", rest
    head = (_PARAM if name == "parameter" else _ROLE).match(rest)
    if not head or not head.group(2).strip():
        raise fail(f"{name.upper()} needs a name and a value")
    return name, head.group(1), head.group(2).lstrip()


def _add(fields: dict[str, Any], name: str, key: str, value: str, fail: Callable[..., ModelfileError]) -> None:
    """Put one instruction's value into the Modelfile's `fields`."""
    if name == "parameter":
        _add_parameter(fields["parameters"], key, value, fail)
    elif name == "message":
        if key not in ("system", "user", "assistant"):
            raise fail(f"MESSAGE role {key!r} is invalid: use system, user or assistant")
        fields["messages"].append({"role": key, "content": value})
    elif name in ("adapter", "license"):
        fields[name + "s" if name == "adapter" else name].append(value)
    else:
        fields["model" if name == "from" else name] = value


def _value(rest: str, lines: list[str], i: int, fail: Callable[..., ModelfileError]) -> tuple[str, int]:
    """The value starting with `rest`, reading more lines while a quote is open; returns (value, next line)."""
    quote = '"""' if rest.startswith('"""') else '"' if rest.startswith('"') else ""
    if not quote:
        return rest.strip(), i
    start, text = i, rest
    while not (len(text.rstrip()) >= 2 * len(quote) and text.rstrip().endswith(quote)):
        if i >= len(lines):
            raise fail(f"unterminated {quote} string: close it with {quote}", start)
        text += "\n" + lines[i]
        i += 1
    return text.rstrip()[len(quote) : -len(quote)], i


def _add_parameter(params: dict[str, Any], key: str, value: str, fail: Callable[..., ModelfileError]) -> None:
    key = key.lower()
    converters: list[tuple[frozenset[str], Callable[[str], Any], str]] = [
        (INT_PARAMS, int, "an integer"),
        (FLOAT_PARAMS, float, "a number"),
        (BOOL_PARAMS, _boolean, "true or false"),
    ]
    if key == "stop":
        params.setdefault("stop", []).append(value)
        return
    for names, convert, kind in converters:
        if key in names:
            try:
                params[key] = convert(value)
            except ValueError:
                raise fail(f"PARAMETER {key} must be {kind}, got {value!r}") from None
            return
    raise fail(f"unknown PARAMETER {key!r}: see `ollama show --parameters` for valid names")


def _boolean(value: str) -> bool:
    if value.lower() not in ("true", "false"):
        raise ValueError(value)
    return value.lower() == "true"
