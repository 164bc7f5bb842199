"""Parameter types shared by several tools."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator


def _listed(value: list[str] | str) -> list[str]:
    return [value] if isinstance(value, str) else value


OneOrMany = Annotated[list[str] | str, AfterValidator(_listed)]
"""A list of names; a single name is accepted and becomes a one-item list."""
