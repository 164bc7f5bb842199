"""Small canonical frames and a runner for the tool tests (the expected values are computed with pandas)."""

from __future__ import annotations

from typing import Any

import pandas as pd
from hypothesis import strategies as st

from react_engine.tools import REGISTRY, ToolContext, ToolResult

STR = "str"
LEVELS = [("ERROR", "error"), ("FATAL", "critical"), ("SEVERE", "critical"), ("WARN", "warning"),
          ("INFO", "info"), ("E", "error"), ("debug", "debug"), (None, None)]
HOSTS = ["web1", "WEB2", "db1", "cmts01"]
COMPONENTS = ["sshd", "nginx", "kernel", "app"]
WORDS = ["timeout", "T3", "Timeout", "error", "ok", "user=alice", "10.0.0.1", "00:1D:D3:8E:D4:B7",
         "001d.d38e.d4b7", "aaa", "ümlaut", "a.b", "x*y", "Cable5/0/1", "multi\nline"]


def frame(rows: list[dict[str, Any]], start: str = "2026-11-20T10:00:00Z") -> pd.DataFrame:
    """A canonical frame: each row gives `message` and optionally level/host/...; `raw` is derived."""
    base = pd.Timestamp(start)
    records = []
    for i, row in enumerate(rows):
        level_raw, severity = row.get("level", (None, None))
        stamp = row.get("timestamp", base + pd.Timedelta(minutes=7 * i))
        host, component = row.get("host", "web1"), row.get("component", "app")
        records.append({
            "timestamp": stamp, "severity": severity, "level_raw": level_raw, "host": host,
            "component": component, "pid": row.get("pid"), "message": row["message"], "source": "test.log",
            "line": i + 1, "raw": f"{'' if pd.isna(stamp) else stamp} {host} {component}: {level_raw} {row['message']}",
            "status": row.get("status"),
        })
    df = pd.DataFrame.from_records(records, columns=list(records[0]) if records else None)
    df = df.astype({c: STR for c in ("severity", "level_raw", "host", "component", "pid", "message", "source", "raw")})
    df["timestamp"] = pd.to_datetime(df["timestamp"], utc=True)
    df["status"] = df["status"].astype("Int64")
    df["line"] = df["line"].astype("int64")
    df.index = pd.RangeIndex(100, 100 + len(df))  # labels differ from positions on purpose
    return df


def context(df: pd.DataFrame, rows: pd.DataFrame | None = None, **kwargs: Any) -> ToolContext:
    now = kwargs.pop("now", df["timestamp"].max())
    return ToolContext(frame=df, rows=df if rows is None else rows, now=now, **kwargs)


def run(name: str, ctx: ToolContext, /, **params: Any) -> ToolResult:
    """Validate `params` the way the engine does and run tool `name`."""
    tool = REGISTRY[name]
    return tool.run(tool.params.model_validate(params), ctx)


@st.composite
def frames(draw: st.DrawFn, max_rows: int = 30) -> pd.DataFrame:
    """Frames whose cells come from small pools, so that filters both match and miss."""
    rows = draw(st.lists(st.fixed_dictionaries({
        "message": st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join),
        "level": st.sampled_from(LEVELS),
        "host": st.sampled_from(HOSTS),
        "component": st.sampled_from(COMPONENTS),
        "pid": st.one_of(st.none(), st.sampled_from(["1", "22", "main"])),
        "status": st.one_of(st.none(), st.sampled_from([200, 404, 500])),
        "timestamp": st.one_of(st.none(), st.integers(0, 48 * 60).map(
            lambda m: pd.Timestamp("2026-11-20T00:00Z") + pd.Timedelta(minutes=m))),
    }), min_size=1, max_size=max_rows))
    return frame(rows)
