"""`LoadOptions`: how paths are turned into rows, shared by `load`, the cache key, the engine and the CLI."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?", re.IGNORECASE)


def parse_size(value: Any) -> Any:
    """`"500M"`, `"2G"`, `"1.5GiB"` or `"1000"` as a number of bytes; anything else is left to validation."""
    if isinstance(value, str) and (match := _SIZE.fullmatch(value.strip())):
        return int(float(match[1]) * _UNITS[match[2].upper()])
    return value


def format_size(size: float) -> str:
    """`1536` as `1.5 KiB`, `3 * 2**30` as `3.0 GiB`."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(size) < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TiB"


def _tuple(value: Any) -> Any:
    return (value,) if isinstance(value, str) else value


ByteSize = Annotated[int, BeforeValidator(parse_size), Field(gt=0)]
Patterns = Annotated[tuple[str, ...], BeforeValidator(_tuple)]


class LoadOptions(BaseModel):
    """Everything that decides which files are read and how (the paths themselves aside).

    `glob` and `exclude` apply to files found in folders or by a glob pattern, never to a file named
    explicitly; with `glob` given, it replaces the rule that takes only log files from folders.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: str | None = Field(None, description="force this format instead of detecting one per file")
    year: int | None = Field(None, description="year of the first date written without one; later ones "
                             "roll over where the months jump back (default: the file's mtime)")
    use_cache: bool = Field(True, description="read and write the parsed-frame cache")
    glob: Patterns = Field((), description="take only files matching one of these patterns")
    exclude: Patterns = Field((), description="leave out files matching one of these patterns")
    max_input_size: ByteSize = Field(4 * 2**30, description="largest input, in bytes once decompressed")
    max_ratio: float = Field(200.0, gt=1, description="largest decompressed/compressed size ratio")
    dask: str | None = Field(None, description="load and query on Dask: tcp://host:8786, local or local:N")
    dask_spill: str | None = Field(None, description="folder for parsed rows that do not fit the Dask workers' "
                                   "memory (default: a temporary folder)")

    def parse_key(self) -> dict[str, Any]:
        """The options that change the parsed rows of a file (what the cache key needs)."""
        return {"format": self.format, "year": self.year}
