"""Running the engine on a Dask cluster: logs loaded and tools run on the workers (needs the `dask` extra)."""

from __future__ import annotations

from react_engine.dask.cluster import INSTALL_HINT, connect

__all__ = ["INSTALL_HINT", "connect"]
