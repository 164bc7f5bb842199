"""dpkg, apt history, PostgreSQL, Kubernetes CRI and logfmt logs: detected (not read as syslog), their fields as
columns, and `inspect` listing them."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.app.cli import main
from react_engine.logs import LoadOptions, load

NO_CACHE = LoadOptions(use_cache=False)
DPKG = """\
2024-01-15 10:23:44 startup archives unpack
2024-01-15 10:23:45 upgrade libssl3:amd64 3.0.2-0ubuntu1.12 3.0.2-0ubuntu1.14
2024-01-15 10:23:45 status half-configured libssl3:amd64 3.0.2-0ubuntu1.12
2024-01-15 10:23:46 install nginx:amd64 <none> 1.18.0-6ubuntu14.4
2024-01-15 10:23:47 configure nginx:amd64 1.18.0-6ubuntu14.4 <none>
2024-01-15 10:23:47 status installed nginx:amd64 1.18.0-6ubuntu14.4
2024-01-15 10:23:49 remove telnet:amd64 0.17-44build1 <none>
2024-01-15 10:23:49 conffile /etc/nginx/nginx.conf keep
"""
APT = """\
Start-Date: 2024-01-15  10:23:40
Commandline: apt-get install -y nginx
Requested-By: alice (1000)
Install: nginx:amd64 (1.18.0-6ubuntu14.4), nginx-common:amd64 (1.18.0-6ubuntu14.4, automatic)
End-Date: 2024-01-15  10:23:49

Start-Date: 2024-01-17  09:00:00
Commandline: apt remove telnet
Remove: telnet:amd64 (0.17-44build1)
Error: Sub-process /usr/bin/dpkg returned an error code (1)
End-Date: 2024-01-17  09:00:03
"""
POSTGRES = """\
2024-01-15 10:23:45.123 UTC [1234] LOG:  starting PostgreSQL 16.1 on x86_64-pc-linux-gnu
2024-01-15 10:24:01.532 UTC [2001] app@shop ERROR:  relation "orders2" does not exist at character 15
2024-01-15 10:24:01.532 UTC [2001] app@shop STATEMENT:  SELECT * FROM orders2
\tWHERE id = 1;
2024-01-15 10:25:12.004 UTC [2002] app@shop FATAL:  password authentication failed for user "app"
2024-01-15 10:25:12.004 UTC [2002] app@shop DETAIL:  Connection matched pg_hba.conf line 99
2024-01-15 10:27:00.000 UTC [1236] DEBUG2:  autovacuum: processing database "shop"
"""
CRI = """\
2024-01-15T10:23:45.123456789Z stdout F Starting server on :8080
2024-01-15T10:23:46.000000001Z stderr F ERROR failed to connect to db: timeout
2024-01-15T10:23:47.5Z stdout P partial line begins
"""
LOGFMT = """\
ts=2024-01-15T10:23:45Z level=info msg="request done" method=GET path=/api/users status=200
ts=2024-01-15T10:23:46Z level=error msg="db timeout" method=POST path=/api/orders status=500 err="i/o \\"timeout\\""
"""


def _load(tmp_path: Path, name: str, text: str) -> pd.DataFrame:
    path = tmp_path / name
    path.write_text(text)
    return load(path, NO_CACHE)


def _format(frame: pd.DataFrame) -> str:
    return frame.attrs["files"][0]["format"]


def test_dpkg_log_is_not_syslog(tmp_path: Path) -> None:
    frame = _load(tmp_path, "dpkg.log", DPKG)
    assert _format(frame) == "dpkg" and frame["host"].isna().all()
    assert frame["action"].tolist() == ["startup", "upgrade", "status", "install", "configure", "status", "remove",
                                        "conffile"]
    assert frame["package"].iloc[1] == "libssl3:amd64" and frame["version"].iloc[1] == "3.0.2-0ubuntu1.14"
    assert frame["old_version"].iloc[1] == "3.0.2-0ubuntu1.12" and pd.isna(frame["old_version"].iloc[3])
    assert frame["state"].iloc[2] == "half-configured" and pd.isna(frame["version"].iloc[4])


def test_apt_history_stanzas_are_rows(tmp_path: Path) -> None:
    frame = _load(tmp_path, "history.log", APT)
    assert _format(frame) == "apt_history" and len(frame) == 2
    assert frame["timestamp"].tolist() == [pd.Timestamp("2024-01-15T10:23:40Z"), pd.Timestamp("2024-01-17T09:00Z")]
    assert frame["commandline"].tolist() == ["apt-get install -y nginx", "apt remove telnet"]
    assert frame["action"].tolist() == ["Install", "Remove"] and frame["requested_by"].iloc[0] == "alice (1000)"
    assert frame["packages"].iloc[1] == "telnet:amd64 (0.17-44build1)"
    assert frame["severity"].tolist()[1] == "error" and pd.isna(frame["error"].iloc[0])
    assert frame["line"].tolist() == [1, 7] and not frame["message"].iloc[0].startswith("Start-Date")


def test_postgres_stderr_log(tmp_path: Path) -> None:
    frame = _load(tmp_path, "postgresql-16-main.log", POSTGRES)
    assert _format(frame) == "postgres" and len(frame) == 4
    assert frame["severity"].tolist() == ["info", "error", "critical", "debug"]
    assert frame["level_raw"].tolist() == ["LOG", "ERROR", "FATAL", "DEBUG2"]
    assert frame["pid"].tolist() == ["1234", "2001", "2002", "1236"]
    assert frame["user"].tolist()[1:3] == ["app", "app"] and frame["database"].iloc[1] == "shop"
    assert "STATEMENT:  SELECT * FROM orders2\n\tWHERE id = 1;" in frame["message"].iloc[1]


def test_kubernetes_cri_container_log(tmp_path: Path) -> None:
    frame = _load(tmp_path, "0.log", CRI)
    assert _format(frame) == "cri"
    assert frame["stream"].tolist() == ["stdout", "stderr", "stdout"] and frame["tag"].tolist() == ["F", "F", "P"]
    assert frame["message"].iloc[1] == "ERROR failed to connect to db: timeout"
    assert frame["severity"].iloc[1] == "error"
    assert frame["timestamp"].iloc[0] == pd.Timestamp("2024-01-15T10:23:45.123456789Z")


def test_logfmt_lines(tmp_path: Path) -> None:
    frame = _load(tmp_path, "service.log", LOGFMT)
    assert _format(frame) == "logfmt"
    assert frame["message"].tolist() == ["request done", "db timeout"]
    assert frame["severity"].tolist() == ["info", "error"] and frame["status"].tolist() == [200, 500]
    assert frame["err"].iloc[1] == 'i/o "timeout"' and frame["path"].iloc[0] == "/api/users"


_KEY = st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True).filter(lambda k: k not in {"ts", "level", "msg", "time"})
_WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=20)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(_KEY, _WORDS, min_size=1, max_size=5), _WORDS)
def test_any_logfmt_pairs_read_back(pairs: dict[str, str], message: str) -> None:
    from react_engine.logs.formats.logfmt import _pairs

    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    line = f"level=info msg={quoted(message)} " + " ".join(f"{k}={quoted(v)}" for k, v in pairs.items())
    assert _pairs(line) == {"level": "info", "msg": message, **pairs}


def test_inspect_shows_the_new_formats_fields(tmp_path: Path) -> None:
    cases = {"dpkg.log": (DPKG, "action, state, package, version, old_version"),
             "history.log": (APT, "commandline, requested_by, action, packages, error"),
             "postgresql.log": (POSTGRES, "user, database"), "0.log": (CRI, "stream, tag"),
             "service.log": (LOGFMT, "method, path, status")}
    for name, (text, fields) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        result = CliRunner().invoke(main, ["inspect", "--no-cache", str(path)])
        assert result.exit_code == 0, result.output
        assert fields in result.output, result.output


def test_apt_history_as_apt_writes_it_has_no_row_for_its_blank_lines(tmp_path: Path) -> None:
    """apt starts every stanza, the first included, with a blank line: they are no rows of their own."""
    stanzas = APT.split("\n\n")
    frame = _load(tmp_path, "history.log", "".join(f"\n{s.strip()}\n" for s in stanzas) + "\n\n")
    assert len(frame) == 2 and frame["message"].str.strip().ne("").all()
    assert frame["commandline"].tolist() == ["apt-get install -y nginx", "apt remove telnet"]
    assert frame["line"].tolist() == [2, 8] and frame["timestamp"].notna().all()
