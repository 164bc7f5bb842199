"""How much memory loading a log takes, measured, for checking a load fits before it starts.

Measured with `ru_maxrss` around `load(..., use_cache=False)` on the loghub OpenSSH, HDFS, Android and
Windows samples repeated to 70-113 MB: the peak grew by 3.7-4.2 bytes per byte of (decompressed) log,
the finished frame holds 2.4-2.7; per row that is 430-580 bytes. The interpreter with pandas, pyarrow
and the engine loaded adds about BASE_BYTES.
"""

from __future__ import annotations

PEAK_BYTES_PER_LOG_BYTE = 4.5
"""Peak memory growth per byte of decompressed log text while it is parsed (measured 3.7-4.2, plus margin)."""
FRAME_BYTES_PER_LOG_BYTE = 2.7
"""Memory the loaded frame keeps per byte of log text."""
BASE_BYTES = 130 * 2**20


def peak_bytes(log_bytes: int) -> int:
    """Expected peak memory of a process that loads `log_bytes` of (decompressed) log text."""
    return BASE_BYTES + int(PEAK_BYTES_PER_LOG_BYTE * log_bytes)
