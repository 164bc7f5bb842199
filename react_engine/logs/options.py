"""`LoadOptions`: how paths are turned into rows, shared by `load`, the cache key, the engine and the CLI."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class LoadOptions(BaseModel):
    """Everything that decides which files are read and how (the paths themselves aside)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: str | None = Field(None, description="force this format instead of detecting one per file")
    year: int | None = Field(None, description="year for dates written without one (default: the file's mtime)")
    use_cache: bool = Field(True, description="read and write the parsed-frame cache")

    def parse_key(self) -> dict[str, Any]:
        """The options that change the parsed rows of a file (what the cache key needs)."""
        return {"format": self.format, "year": self.year}
