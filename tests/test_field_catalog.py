"""The field catalogue: each pattern field read back from the lines as the lines write it, on generated lines and on
the loghub samples, whose truths are the parameters each structured CSV's EventTemplate fills in."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from real_logs import REAL_LOGS

from react_engine.lexicon.stop_words import PATTERN_FIELD_STOPS
from react_engine.logs.field_catalog import FieldCatalog, reader
from react_engine.logs.fields import read, read_text
from react_engine.logs.pattern_fields import pattern_fields

keys = st.from_regex(r"[a-z][a-z_]{1,8}", fullmatch=True).filter(lambda k: k not in PATTERN_FIELD_STOPS)
octets = st.integers(0, 255)
addresses = st.tuples(octets, octets, octets, octets).map(lambda o: ".".join(map(str, o)))
users = st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True)


def _read_back(template: str, messages: list[str], name: str) -> list[str | None]:
    """The values the field `name` of `template` reads from each message through its reader, which reads the same
    with Python's `re` as through Arrow's RE2."""
    field = next(f for f in pattern_fields(template, messages) if f.name == name)
    pattern = re.compile(reader(template, field))
    by_re = [m["v"] if (m := pattern.match(message)) else None for message in messages]
    found = FieldCatalog.build(messages).field(name)
    assert found is not None
    by_arrow = [None if pd.isna(v) else v for v in read_text(pd.Series(messages), found)]
    assert by_re == by_arrow
    return by_arrow


@given(st.lists(st.tuples(users, addresses, st.integers(1, 65535)), min_size=2, max_size=8))
def test_a_field_of_a_token_run_reads_each_value(lines: list[tuple[str, str, int]]) -> None:
    messages = [f"Failed password for {u} from {a} port {p} ssh2" for u, a, p in lines]
    template = "Failed password for <*> from <*> port <*>"
    assert _read_back(template, messages, "from") == [a for _, a, _ in lines]
    assert _read_back(template, messages, "port") == [str(p) for _, _, p in lines]


@given(keys, st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**5)), min_size=2, max_size=8))
def test_a_pair_and_a_number_with_its_unit_read_as_numbers(key: str, lines: list[tuple[int, int]]) -> None:
    messages = [f"job {key}={n} took {t} ms" for n, t in lines]
    catalog = FieldCatalog.build(messages)
    numbers = {f.name: f for f in catalog.numeric_fields()}
    assert read(pd.Series(messages), numbers[key]).tolist() == [float(n) for n, _ in lines]
    assert numbers["took"].unit == "s"
    assert read(pd.Series(messages), numbers["took"]).tolist() == pytest.approx([t / 1000 for _, t in lines])


@given(st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["KB", "MB", "bytes", "B"])), min_size=2, max_size=8))
def test_a_size_written_with_its_unit_reads_in_bytes(lines: list[tuple[int, str]]) -> None:
    messages = [f"cache holds {n}{unit} now" for n, unit in lines]
    catalog = FieldCatalog.build(messages)
    holds = catalog.numeric_field("holds")
    scale = {"KB": 1024, "MB": 1024**2, "bytes": 1, "B": 1}
    assert holds is not None and holds.unit == "bytes"
    assert read(pd.Series(messages), holds).tolist() == [float(n * scale[unit]) for n, unit in lines]


@given(st.sampled_from(["src: /", "from ", "to "]), st.lists(st.tuples(addresses, st.integers(1, 65535)), min_size=2,
                                                               max_size=6))
def test_an_address_and_its_port_read_apart(lead: str, pairs: list[tuple[str, int]]) -> None:
    name = lead.split(":")[0].strip()
    messages = [f"Receiving {lead}{a}:{p} now" for a, p in pairs]
    template = f"Receiving {lead}<*>:<*> now"
    assert _read_back(template, messages, name) == [a for a, _ in pairs]
    assert _read_back(template, messages, f"{name} port") == [str(p) for _, p in pairs]


def test_a_name_shared_by_patterns_is_one_field_of_both() -> None:
    messages = [f"Failed password for root from 10.0.0.{i} port {4000 + i} ssh2" for i in range(4)] + [
        f"Accepted password for bob from 10.0.1.{i} port {5000 + i} ssh2" for i in range(3)]
    catalog = FieldCatalog.build(messages)
    port = catalog.field("port")
    assert port is not None and len(port.patterns) == 2 and port.sampled == 7
    assert read(pd.Series(messages), port).tolist() == [4000.0, 4001, 4002, 4003, 5000, 5001, 5002]
    assert FieldCatalog.from_json(catalog.to_json()) == catalog


def test_a_field_named_by_its_type_is_named_in_its_own_pattern_only() -> None:
    messages = [f"worker {i} ready" for i in range(3)] + [f"queue {i} empty" for i in range(3)]
    catalog = FieldCatalog.build(messages)
    assert {"worker", "queue"} <= set(catalog.names())
    assert catalog.field("worker") is not None and catalog.field("integer") is None


def _name_before(before: str) -> str | None:
    """The word printed right before a parameter (`port `, `src: /`, `size=`), as the loghub generator names it."""
    m = re.search(r"([A-Za-z][A-Za-z_]*)(?:\s*[:=#]\s*/?|\s+)$", before)
    return m.group(1).lower() if m else None


def _agreement(system: str) -> tuple[int, int]:
    """`(values compared, values equal)`: for each loghub template parameter named by the word before it that the
    catalogue has a field of, the parameter each line fills in against the field's value read from that line (a
    parameter's host for an address with its port, its first token for a run of tokens; a leading `/` aside)."""
    frame = pd.read_csv(REAL_LOGS / system / f"{system}_2k.log_structured.csv", dtype=str, keep_default_na=False)
    catalog = FieldCatalog.build(frame["Content"].tolist())
    compared = equal = 0
    for written, rows in frame.groupby("EventTemplate"):
        pieces = str(written).split("<*>")
        if len(pieces) < 2:
            continue
        parameters = rows["Content"].str.extract("^" + "(.*?)".join(map(re.escape, pieces)) + "$", flags=re.S)
        for i, before in enumerate(pieces[:-1]):
            name = _name_before(before)
            field = catalog.field(name) if name and not re.match(r"[\w/@.:]", pieces[i + 1]) else None
            if field is None:
                continue
            ours = read_text(rows["Content"], field)
            for truth, value in zip(parameters[i], ours, strict=True):
                if pd.isna(truth) or pd.isna(value):
                    continue
                truth, value = str(truth).lstrip("/"), str(value).strip("/")
                compared += 1
                equal += value in (truth, truth.split(":")[0], truth.split()[0] if truth.split() else truth)
    return compared, equal


SYSTEMS = ("Android", "Apache", "BGL", "HDFS", "HPC", "Hadoop", "HealthApp", "Linux", "Mac", "OpenSSH", "OpenStack",
           "Proxifier", "Spark", "Thunderbird", "Windows", "Zookeeper")


@pytest.mark.parametrize("system", SYSTEMS)
def test_pattern_fields_read_the_parameters_loghub_names(system: str) -> None:
    if not (REAL_LOGS / system / f"{system}_2k.log_structured.csv").exists():
        pytest.skip("the loghub samples are absent")
    compared, equal = _agreement(system)
    assert compared >= 300  # the log's words name fields the catalogue holds
    assert equal >= 0.95 * compared
