#!/usr/bin/env python3
"""How react-engine reads lnav's sample logs, beside how lnav reads them: one row per `logfile_*` file.

    python scripts/lnav_agreement.py /path/to/lnav/test [--lnav-cache lnav.json] [--only NAME] [--builtin-only]

Per file it prints react-engine's format, its count of entries, of error-or-worse entries and the time of its first
dated entry (marked `*` when a later entry is earlier: the file is out of order); when `lnav` is on PATH, lnav's
format and the same three numbers (`SELECT ... FROM all_logs`, run with TZ=UTC and a throw-away HOME; lnav keeps a
file's times from going backwards in some formats, so its earliest time may be its first), then a verdict:

- `agree`: the same count, error count and time (lnav's earliest is our first or our earliest, to the second);
- `convention:...`: every difference is one of these stated conventions:
  `lines`: the count, in a file whose entries span lines in our format (PostgreSQL's DETAIL lines join their
  entry), or with header lines (`#...`) or indented lines, which lnav folds into the entry above where it cannot
  parse them and we keep as rows of their own unless the format spans lines; or where our count less our rows
  without a time that follow a dated row (lines our format does not parse, which lnav folds into the entry above)
  is lnav's count;
  `year`: the first time is a year apart, in a file whose dates carry no year: both take it from the file's
  modification time, but we place a date later than the file was written in the year before;
  `zone`: the first time is whole quarter hours apart: we show times in UTC, lnav as written in their zone;
  `4xx`: lnav counts HTTP 4xx responses as errors, we as warnings (inferred from the status, as `severity_rule`
  says), so our errors plus those warnings equal its errors;
  `keywords`: lnav reads a syslog line that writes no level as an error when its message says error(s), failed or
  failure (its syslog format's level rule); we invent no level from a message's words, and an answer about
  errors in such a log says it searched the text because "these logs record no severities". Our errors plus our
  level-less rows whose message has those words equal its errors;
- `differ`: anything else, or a file lnav reads with a format where we find no time;
- `lnav-text`: lnav recognises no format in the file (nothing to compare).

Without lnav the lnav columns are blank. Get lnav's test folder from its repository (`git archive HEAD test/`).
lnav's own tests read that folder with the formats it defines for its sample logs (`formats/*/format.json`, loaded
with `lnav -I test`): so are they here, those this lnav can load (a format written for a later lnav is left out
and named); `--builtin-only` reads with lnav's built-in formats alone.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from react_engine.errors import InputError
from react_engine.logs.formats import BY_NAME
from react_engine.logs.loader import load
from react_engine.logs.options import LoadOptions
from react_engine.logs.severity import at_least

ERRORS = at_least("error")
WHY = {
    "syslog": "lnav folds a syslog line without `tag:` into the entry above, reads an access log line inside a "
              "message by its access log format (4xx as errors), and places no date before 1970; we do none of these",
    "laravel": "this lnav (0.11) has no Laravel format; we read its levels as written (local.ERROR)",
}
"""Why a file may still differ, by our format: printed beside a `differ` verdict, which it does not change."""
LNAV_SYSLOG_ERROR = re.compile(r"(?<![a-zA-Z])(?i:errors?)(?![a-zA-Z])|failed|failure")
"""lnav's syslog format's error rule, read from its `level` map (`error`): the words it takes for an error."""
LNAV_QUERY = (
    ";SELECT (SELECT log_format FROM all_logs LIMIT 1) AS format, count(*) AS lines, "
    "sum(log_level IN ('error', 'critical', 'fatal')) AS errors, min(log_time) AS first FROM all_logs"
)


@dataclass
class Reading:
    """One tool's reading of one file."""

    format: str = ""
    lines: int = 0
    errors: int = 0
    first: str = ""
    inferred_warnings: int = 0
    earliest: str = ""
    keyword_errors: int = 0
    folded: int = 0

    def shown(self) -> str:
        """The first time, marked `*` when the file is out of order (a later entry is earlier)."""
        return self.first + ("*" if self.earliest and self.earliest < self.first else "")

    def at(self, time: str) -> str:
        """Which of our first and earliest times `time` is (the first when both or neither)."""
        return self.earliest if time == self.earliest and time != self.first else self.first


def ours(path: Path) -> Reading:
    """react-engine's reading of `path` (no cache)."""
    try:
        frame = load([path], LoadOptions(use_cache=False))
    except InputError as error:
        return Reading(format=f"refused: {error}")
    files = frame.attrs["files"]
    stamps = frame["timestamp"].dropna() if "timestamp" in frame else pd.Series([], dtype="datetime64[ns, UTC]")
    first = stamps.iloc[0].strftime("%Y-%m-%d %H:%M:%S") if len(stamps) else ""
    earliest = stamps.min().strftime("%Y-%m-%d %H:%M:%S") if len(stamps) else ""
    errors = int(frame["severity"].isin(ERRORS).sum()) if "severity" in frame else 0
    inferred = int(((frame["severity"] == "warning") & frame["severity_rule"].notna()).sum()) if (
        "severity_rule" in frame) else 0
    return Reading(format=files[0]["format"] or "", lines=len(frame), errors=errors, first=first,
                   inferred_warnings=inferred, earliest=earliest, keyword_errors=_keyword_errors(frame),
                   folded=_folded(frame))


def _keyword_errors(frame: pd.DataFrame) -> int:
    """Our rows that write no level and whose message lnav's syslog format would take for an error."""
    if "severity" not in frame or "message" not in frame:
        return 0
    messages = frame.loc[frame["severity"].isna(), "message"].fillna("")
    return int(messages.str.contains(LNAV_SYSLOG_ERROR).sum())


def _folded(frame: pd.DataFrame) -> int:
    """Our rows without a time that follow a dated row: lines our format does not parse, which lnav folds into the
    entry above."""
    if "timestamp" not in frame or not len(frame):
        return 0
    dated = frame["timestamp"].notna()
    return int((~dated & dated.cummax()).sum())


def _run_lnav(arguments: list[str], home: str) -> subprocess.CompletedProcess[str]:
    """lnav run with `arguments`, in UTC with a throw-away HOME (lnav must be on PATH)."""
    env = {**os.environ, "TZ": "UTC", "HOME": home}
    return subprocess.run([shutil.which("lnav") or "lnav", "-n", *arguments], capture_output=True, text=True,
                          env=env, timeout=60, check=False)


def load_test_formats(folder: Path, home: str, into: Path) -> list[str]:
    """Copy into `into/formats` the formats lnav's test folder defines (`formats/*/format.json`) that this lnav
    loads; returns the names of those it cannot load (written for a later lnav)."""
    probe = into / "probe.log"
    probe.write_text("probe\n")
    refused = []
    for source in sorted((folder / "formats").glob("*/format.json")):
        target = into / "formats" / source.parent.name / "format.json"
        target.parent.mkdir(parents=True)
        shutil.copyfile(source, target)
        if _run_lnav(["-I", str(into), "-c", ";SELECT 1", str(probe)], home).returncode != 0:
            shutil.rmtree(target.parent)
            refused.append(source.parent.name)
    return refused


def lnav(path: Path, home: str, config: Path | None = None) -> Reading | None:
    """lnav's reading of `path` (with the formats under `config` too, when given), None when lnav is not
    installed."""
    if shutil.which("lnav") is None:
        return None
    done = _run_lnav([*(["-I", str(config)] if config else []), "-c", LNAV_QUERY, "-c", ":write-csv-to -",
                      str(path)], home)
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    if not rows:
        return Reading(format=f"lnav failed: {done.stderr.strip()[:60]}")
    row = {key: "" if value == "<NULL>" else value for key, value in rows[0].items()}
    return Reading(format=row["format"], lines=int(row["lines"] or 0), errors=int(row["errors"] or 0),
                   first=row["first"][:19])


def spans_lines(path: Path, fmt: str) -> bool:
    """Whether our format joins lines into entries, or the file has header lines (`#...`) or lines that start with
    a space or tab (continuations)."""
    if fmt in BY_NAME and BY_NAME[fmt].multiline:
        return True
    text = path.read_text(errors="replace")
    return any(line.startswith(("#", " ", "\t")) for line in text.splitlines())


def _time_convention(ours_first: str, theirs_first: str) -> str | None:
    """`year` or `zone` when the two first times differ by that convention alone, else None."""
    if not ours_first or not theirs_first:
        return None
    if ours_first[4:] == theirs_first[4:] and abs(int(ours_first[:4]) - int(theirs_first[:4])) == 1:
        return "year"
    apart = abs((pd.Timestamp(ours_first) - pd.Timestamp(theirs_first)).total_seconds())
    return "zone" if apart <= 14 * 3600 and apart % 900 == 0 else None


def _error_convention(we: Reading, they: Reading) -> str | None:
    """`4xx` or `keywords` when the two error counts differ by that convention alone, else None."""
    if we.errors + we.inferred_warnings == they.errors:
        return "4xx"
    if they.format == "syslog_log" and we.errors + we.keyword_errors == they.errors:
        return "keywords"
    return None


def verdict(path: Path, we: Reading, they: Reading | None) -> str:
    """`agree`, `convention:<reasons>`, `differ`, `lnav-text` or '' (no lnav)."""
    if they is None:
        return ""
    if not they.format or they.lines == 0:
        return "lnav-text"
    if (we.lines, we.errors, we.at(they.first)) == (they.lines, they.errors, they.first):
        return "agree"
    reasons = []
    if we.lines != they.lines:
        if not spans_lines(path, we.format) and we.lines - we.folded != they.lines:
            return "differ"
        reasons.append("lines")
    if we.errors != they.errors:
        reason = _error_convention(we, they)
        if reason is None:
            return "differ"
        reasons.append(reason)
    if we.at(they.first) != they.first:
        reason = _time_convention(we.first, they.first) or _time_convention(we.earliest, they.first)
        if reason is None:
            return "differ"
        reasons.append(reason)
    return "convention:" + ",".join(reasons)


def cached_lnav(files: list[Path], cache: Path | None, builtin_only: bool = False) -> dict[str, Reading | None]:
    """lnav's readings of `files`, read from and written to `cache` when given; with the formats of lnav's test
    folder (the files' folder) unless `builtin_only`."""
    known: dict[str, dict] = json.loads(cache.read_text()) if cache and cache.exists() else {}
    readings: dict[str, Reading | None] = {}
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as config:
        if not builtin_only and shutil.which("lnav") and any(p.name not in known for p in files):
            refused = load_test_formats(files[0].parent, home, Path(config))
            if refused:
                print(f"formats this lnav cannot load, left out: {', '.join(refused)}", file=sys.stderr)
        for path in files:
            if path.name in known:
                readings[path.name] = Reading(**known[path.name])
                continue
            readings[path.name] = lnav(path, home, None if builtin_only else Path(config))
    if cache:
        cache.write_text(json.dumps({k: asdict(v) for k, v in readings.items() if v is not None}, indent=1))
    return readings


def table(files: list[Path], theirs: dict[str, Reading | None]) -> dict[str, int]:
    """Print one row per file; returns how many files got each verdict."""
    tally: dict[str, int] = {}
    print(f"{'file':44} {'ours':14} {'lines':>6} {'err':>4} {'first':20} | {'lnav':18} {'lines':>6} {'err':>4} "
          f"{'first':19} verdict")
    for path in files:
        we, they = ours(path), theirs[path.name]
        said = verdict(path, we, they)
        tally[said] = tally.get(said, 0) + 1
        other = they or Reading()
        why = f"  ({WHY[we.format]})" if said == "differ" and we.format in WHY else ""
        print(f"{path.name[:44]:44} {we.format[:14]:14} {we.lines:6} {we.errors:4} {we.shown():20} | "
              f"{other.format[:18]:18} {other.lines:6} {other.errors:4} {other.first:19} {said}{why}")
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="lnav's test folder (holding logfile_* files)")
    parser.add_argument("--lnav-cache", type=Path, help="keep lnav's readings in this JSON file (one per lnav and "
                        "--builtin-only: the readings are kept by file name)")
    parser.add_argument("--only", help="only files whose name contains this")
    parser.add_argument("--builtin-only", action="store_true",
                        help="read with lnav's built-in formats alone, not those lnav's test folder defines")
    args = parser.parse_args(argv)
    files = sorted(p for p in args.folder.glob("logfile_*") if p.is_file() and (not args.only or args.only in p.name))
    if not files:
        print(f"{args.folder}: no logfile_* files; point at lnav's test folder", file=sys.stderr)
        return 2
    tally = table(files, cached_lnav(files, args.lnav_cache, args.builtin_only))
    print(" ".join(f"{name or 'no-lnav'}={count}" for name, count in sorted(tally.items())))
    compared = sum(count for name, count in tally.items() if name not in ("", "lnav-text"))
    same = sum(count for name, count in tally.items() if name == "agree" or name.startswith("convention"))
    print(f"{same} of {compared} files lnav reads agree or differ only by a stated convention")
    return 0


if __name__ == "__main__":
    sys.exit(main())
