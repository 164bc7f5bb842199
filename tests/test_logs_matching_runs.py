"""A pattern's groups captured in several RE2 runs (`matching._runs`) are those one run captures, and OpenStack's
two one-pass patterns read every line as its single pattern with an optional file name does."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs.arrow import STRING
from react_engine.logs.formats.logformat import OnePass
from react_engine.logs.formats.loghub import OPENSTACK
from react_engine.logs.matching import _fixed_places, _runs, match_patterns

OPENSTACK_ONE_PATTERN = (
    r"^(?:(?P<log_file>\S+) )?(?P<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) (?P<pid>\d+) "
    r"(?P<level>[A-Z]+) (?P<component>\S+) (?:\[(?P<request>[^\]]*)\] )?(?P<message>.*)$"
)
"""OpenStack's pattern as it was written first: one pattern, the file name optional (not one-pass)."""

_TEXT = st.text(alphabet="ab1 -:.[]", max_size=8)
_PIECES = st.tuples(
    st.sampled_from(["", "nova-api.log.1.2017-05-16_13:53:08 ", "2017-05-16 ", "x y ", "[a] "]) | _TEXT,
    st.sampled_from(["2017-05-16 00:00:00.008", "2017-05-16 00:00:00", "2017-5-16 00:00:00"]) | _TEXT,
    st.sampled_from([" 25746 ", " 1 ", " x "]) | _TEXT,
    st.sampled_from(["INFO ", "ERROR ", "info ", "INFO"]) | _TEXT,
    st.sampled_from(["nova.osapi_compute.wsgi.server ", "a ", ""]) | _TEXT,
    st.sampled_from(["[req-1 2 - - -] ", "[] ", "[a]b ", "[a ", "[a] [b] "]) | _TEXT,
    _TEXT,
)


def _same(ours: tuple[str, ...], reference: tuple[str, ...], lines: list[str], messages: bool) -> None:
    array = pa.array(lines, STRING)
    columns, matched = match_patterns(ours, array, messages)
    expected, expected_matched = match_patterns(reference, array, messages)
    assert matched.tolist() == expected_matched.tolist()
    assert sorted(columns) == sorted(expected)
    for name in expected:
        assert columns[name].to_pylist() == expected[name].to_pylist(), (name, lines)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES.map("".join), min_size=1, max_size=12), st.booleans())
def test_openstack_patterns_read_lines_as_its_one_pattern(lines: list[str], messages: bool) -> None:
    _same(OPENSTACK.patterns, (OPENSTACK_ONE_PATTERN,), lines, messages)


def test_openstack_patterns_read_the_real_log_as_its_one_pattern() -> None:
    from real_logs import REAL_LOGS

    path = REAL_LOGS / "OpenStack" / "OpenStack_2k.log"
    if path.is_file():
        lines = path.read_text(errors="replace").splitlines()
        _same(OPENSTACK.patterns, (OPENSTACK_ONE_PATTERN,), lines, False)
        _same(OPENSTACK.patterns, (OPENSTACK_ONE_PATTERN,), [line.split(" ", 1)[1] for line in lines], False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["[ab]*1?", "[ab]{2}", ".", "1", "é?[ab]"]), min_size=1, max_size=9),
       st.lists(st.text(alphabet="ab1 é", max_size=8), min_size=1, max_size=8))
def test_groups_split_over_runs_are_captured_as_in_one_run(groups: list[str], lines: list[str]) -> None:
    """A one-pass pattern of any number of groups: its runs' captures, and its groups of a fixed place sliced from
    the head, are one run's; each run captures at most four groups (the head's run, `_head` among them)."""
    body = " ".join(f"(?P<g{i}>{group})" for i, group in enumerate(groups))
    pattern = OnePass(f"^{body} (?P<message>.*)$")
    runs = _runs(pattern, head=True)
    assert all(run.count("(?P<") <= 4 for run in runs.patterns)
    assert sum(run.count("(?P<") for run in runs.patterns) + len(runs.sliced) == len(groups) + 1
    _same((pattern,), (str(pattern),), lines, False)


def test_groups_have_a_fixed_place_only_where_python_reads_the_pattern_as_re2_does() -> None:
    assert _fixed_places(r"(?P<ts>[A-Z][a-z]{2} [ \d]\d) (?P<host>\S+) (?P<pid>\d)") == {"ts": (0, 6)}
    assert _fixed_places(r"x(?P<a>\d{2})(?P<b>é.)(?:y)?(?P<c>\d)") == {"a": (1, 3), "b": (3, 5)}
    assert _fixed_places(r"(?P<d>[[:digit:]]{2}) (?P<host>\S+)") == {}  # Python reads a POSIX class otherwise
    assert _fixed_places(r"(?P<d>\pN) (?P<host>\S+)") == {}  # a class Python's parser cannot read
