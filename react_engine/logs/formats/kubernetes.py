"""Kubernetes container logs as the CRI runtimes write them (`/var/log/pods/*/*/N.log`, `/var/log/containers`).

`2024-01-15T10:23:45.123456789Z stdout F text`: the time, the stream, `F` for a full line or `P` for part of one,
then the container's own text, whose level word is found in it (as in the generic format).
"""

from __future__ import annotations

from react_engine.logs.arrow import group
from react_engine.logs.formats.generic import LEVEL_ANYWHERE
from react_engine.logs.formats.logformat import Columns, Format

LINE = (
    r"^(?P<ts>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) (?P<stream>stdout|stderr) "
    r"(?P<tag>[FP](?::[^\s]*)?) (?P<message>.*)$"
)


def _finish(columns: Columns) -> None:
    columns["level"] = group(columns["message"], LEVEL_ANYWHERE, "level")


CRI = Format(
    name="cri",
    description="Kubernetes CRI container log (`time stdout|stderr F|P text`): stream and tag columns, level words "
    "found in the text",
    patterns=(LINE,),
    shapes=("iso",),
    finish=_finish,
    extras=("stream", "tag"),
)
