"""Paths a client names resolve under the server's roots or are refused, whatever their dots and symlinks."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_engine.app.roots import OutsideRoots, inside, log_files, under
from react_engine.app.serve.limits import check_bind, is_loopback
from react_engine.errors import InputError

SEGMENTS = st.sampled_from(["..", ".", "logs", "out", "in", "a.log", "deep", "~", ""])


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("roots")
    root, outside = base / "root", base / "outside"
    (root / "logs" / "deep").mkdir(parents=True)
    outside.mkdir()
    (outside / "a.log").write_text("2026-11-19T10:00:00Z ERROR outside\n")
    (root / "logs" / "a.log").write_text("2026-11-19T10:00:00Z ERROR inside\n")
    (root / "out").symlink_to(outside)  # leads out
    (root / "logs" / "in").symlink_to(root / "logs" / "deep")  # stays in
    return root.resolve(), outside.resolve()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=300)
@given(parts=st.lists(SEGMENTS, min_size=1, max_size=6), absolute=st.booleans())
def test_a_named_path_is_under_the_root_or_refused(tree: tuple[Path, Path], parts: list[str], absolute: bool) -> None:
    root, outside = tree
    name = ("/" if absolute else "") + "/".join(parts)
    try:
        found = inside(name, [root])
    except OutsideRoots as exc:
        assert "outside" in str(exc)
        return
    assert under(found, [root]) and not found.is_relative_to(outside)


def test_files_found_through_folders_and_globs_stay_under_the_roots(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    assert log_files(["logs"], [root]) == (root / "logs" / "a.log",)
    with pytest.raises(OutsideRoots):
        log_files(["out/a.log"], [root])
    with pytest.raises(OutsideRoots):
        log_files(["../outside/*.log"], [root])
    with pytest.raises(InputError):
        log_files(["-"], [root])


@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("127.8.0.1", True), ("::1", True),
                                                ("localhost", True), ("0.0.0.0", False), ("::", False),
                                                ("192.168.1.5", False), ("example.org", False)])
def test_only_loopback_binds_without_a_token(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    if loopback:
        check_bind(host, None)
    else:
        with pytest.raises(InputError, match="token"):
            check_bind(host, None)
        check_bind(host, "t")
