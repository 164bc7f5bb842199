"""Walking folders: loop-safe recursion, and which of the files found are logs.

A folder of logs often also holds their documentation, checksums, structured exports and archives
(the loghub samples hold a README, SHA256SUMS and CSVs beside each log). Those are left out by name;
binary content is caught later, when a file is read.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_COMPRESSED = re.compile(r"\.(gz|bz2|xz)$", re.IGNORECASE)
_NOT_LOGS = r"""^(?:
        (?:readme|licen[cs]e|copying|citation|changelog|changes|notice|authors|contributing|makefile|dockerfile)
            (?:[-_][^.]*)?(?:\.txt)?                            # README, LICENSE-loghub, NOTICE.txt
      | [a-z0-9]*sums(?:\.txt)?                                 # SHA256SUMS, MD5SUMS, B2SUMS
      | .*\.(?:
            md|markdown|rst|adoc|html?|pdf|docx?|odt|rtf        # documents
          | csv|tsv|xlsx?|ods|parquet|arrow|feather|db|sqlite3? # tables
          | sha(?:1|224|256|384|512)|md5|sig|asc|gpg|pem|crt    # checksums, signatures, keys
          | py|pyc|sh|ps1|bat|js|ts|go|rs|c|h|cpp|java|class|jar|rb|pl
          | ya?ml|toml|ini|cfg|conf|xml|properties              # code and configuration
          | png|jpe?g|gif|svg|ico|bmp|webp|mp[34]|wav           # media
          | zip|tar|tgz|tbz2?|txz|7z|rar|zst|whl|deb|rpm|iso|dmg
          | exe|dll|so|dylib|o|a|bin|img|pcap(?:ng)?|evtx        # archives, binaries, captures
          | tar\.(?:gz|bz2|xz)
        )
    )$"""
"""Names of files that hold no log lines (a verbose pattern, matched ignoring case)."""


@functools.cache
def _not_logs() -> re.Pattern[str]:
    """`_NOT_LOGS` compiled, when a folder is first walked (4 ms at every start otherwise)."""
    return re.compile(_NOT_LOGS, re.IGNORECASE | re.VERBOSE)


def is_log_name(name: str) -> bool:
    """False for names of files that hold no log lines (documentation, checksums, tables, code, media...)."""
    if name.lower().endswith((".tar.gz", ".tar.bz2", ".tar.xz")):
        return False
    return _not_logs().match(_COMPRESSED.sub("", name)) is None


@dataclass(frozen=True)
class Found:
    """A file found in a folder: its path and its path relative to that folder (`/`-separated)."""

    path: Path
    relative: str


SPECIAL = ("/proc", "/sys", "/dev")  # kernel and device files: never logs, and they may hold secrets


def special(path: str | Path) -> bool:
    """`path` resolves under /proc, /sys or /dev."""
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root + "/") for root in SPECIAL)


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def walk(folder: Path, max_depth: int | None = None,
         escapes: list[str] | None = None) -> Iterator[tuple[Found, bool]]:
    """Entries below `folder`, sorted, with whether each is a folder; hidden names are left out.

    A symlink is followed only when it stays inside `folder` (and out of /proc, /sys and /dev); one that leaves
    is not reported but added to `escapes` as `relative -> target`. A folder already visited (a loop, or a second
    way in) is not entered again. `max_depth` limits how many levels down entries are reported (None: no limit).
    """
    seen: set[tuple[int, int]] = set()
    root = os.path.realpath(folder)

    def visit(directory: Path, prefix: str, level: int) -> Iterator[tuple[Found, bool]]:
        try:
            stat = directory.stat()
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        if (stat.st_dev, stat.st_ino) in seen:
            return
        seen.add((stat.st_dev, stat.st_ino))
        for entry in entries:
            if entry.name.startswith("."):
                continue
            found = Found(directory / entry.name, prefix + entry.name)
            if entry.is_symlink():
                target = os.path.realpath(entry.path)
                if not _inside(target, root) or special(target):
                    if escapes is not None:
                        escapes.append(f"{found.relative} -> {target}")
                    continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            yield found, is_dir
            if is_dir and (max_depth is None or level + 1 < max_depth):
                yield from visit(found.path, found.relative + "/", level + 1)

    yield from visit(folder, "", 0)
