"""The fields of a message pattern: named by the log's words beside each variable position, typed from its values."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from react_engine.lexicon.stop_words import PATTERN_FIELD_STOPS
from react_engine.logs.options import LoadOptions
from react_engine.logs.pattern_fields import fielded_patterns, pattern_fields, value_type
from react_engine.logs.summary import inspect

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real_logs"

keys = st.from_regex(r"[a-z][a-z_]{1,8}", fullmatch=True).filter(lambda k: k not in PATTERN_FIELD_STOPS)
octets = st.integers(0, 255)
addresses = st.tuples(octets, octets, octets, octets).map(lambda o: ".".join(map(str, o)))
ports = st.integers(1, 65535)


def _by_name(template: str, messages: list[str]) -> dict[str, tuple[str, tuple[str, ...], str]]:
    return {f.name: (f.type, f.examples, f.unit) for f in pattern_fields(template, messages)}


@given(keys, st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=6),
       st.lists(st.integers(0, 10**5), min_size=1, max_size=6))
def test_a_pair_and_a_number_with_a_unit_are_named_and_typed(key: str, numbers: list[int], took: list[int]) -> None:
    messages = [f"job {key}={n} took {t} ms" for n, t in zip(numbers, took, strict=False)]
    found = _by_name("job " + key + "=<*> took <*> ms", messages)
    written = list(dict.fromkeys(str(n) for n, _ in zip(numbers, took, strict=False)))
    assert found[key][0] == "integer" and list(found[key][1]) == written[:3]
    assert found["took"][0] == "duration" and found["took"][2] == "ms"


@given(st.sampled_from(["src: /", "from ", "to "]), st.lists(st.tuples(addresses, ports), min_size=1, max_size=5))
def test_an_address_with_its_port_is_two_fields(lead: str, pairs: list[tuple[str, int]]) -> None:
    name = lead.split(":")[0].strip()
    messages = [f"Receiving {lead}{a}:{p} now" for a, p in pairs]
    found = _by_name(f"Receiving {lead}<*>:<*> now", messages)  # masking parts them at the colon
    assert found[name][0] == "ip" and found[name][1] == tuple(dict.fromkeys(a for a, _ in pairs))[:3]
    assert found[f"{name} port"][0] == "port"
    assert found[f"{name} port"][1] == tuple(dict.fromkeys(str(p) for _, p in pairs))[:3]


@given(st.lists(st.integers(-999, 999), min_size=1), st.lists(st.floats(0, 1e6, allow_nan=False), min_size=1),
       st.lists(addresses, min_size=1))
def test_types_are_read_from_the_values(integers: list[int], floats: list[float], ips: list[str]) -> None:
    assert value_type([str(i) for i in integers]) == ("integer", "")
    assert value_type([f"{f:.3f}" for f in floats]) == ("float", "")
    assert value_type(ips)[0] == "ip"
    assert value_type([str(i) for i in integers], "KB") == ("bytes", "KB")
    assert value_type([f"{abs(i)}ms" for i in integers]) == ("duration", "ms")
    assert value_type(["12:30:01", "00:02"])[0] == "time"
    assert value_type([*ips, "not an address"])[0] == "text"


def test_named_only_by_a_word_apart_from_the_value() -> None:
    found = pattern_fields("Deleting blk_<*> in stage <*> (TID <*>)",
                           ["Deleting blk_12 in stage 1.0 (TID 3)", "Deleting blk_13 in stage 2.0 (TID 4)"])
    assert [(f.name, f.type) for f in found] == [("integer", "integer"), ("stage", "float"), ("tid", "integer")]


def test_a_position_of_several_tokens_is_read_token_by_token() -> None:
    found = _by_name("Failed password for <*> from <*> port <*>",
                     ["Failed password for root from 1.2.3.4 port 42393 ssh2",
                      "Failed password for bin from 1.2.3.5 port 42394 ssh2"])
    assert found["port"][:2] == ("port", ("42393", "42394")) and found["from"][0] == "ip"
    keyed = _by_name("rhost=<*> <*>", ["rhost=1.2.3.4 user=root", "rhost=h.example.com user=ftp"])
    assert keyed["user"][1] == ("root", "ftp")


def test_patterns_are_merged_and_ranked_by_their_lines() -> None:
    messages = [f"Received block blk_{i} of size {i * 10} from /10.0.0.{i % 3}" for i in range(5)] + ["plain words"]
    found = fielded_patterns(messages, limit=5)
    assert len(found) == 1 and found[0].rows == 5
    assert [f.name for f in found[0].fields] == ["block", "size", "from"]
    assert [f.type for f in found[0].fields] == ["id", "bytes", "ip"]


def test_inspect_lists_the_fields_of_real_patterns() -> None:
    log = REAL / "HDFS" / "HDFS_2k.log"
    if not log.is_file():
        return
    report = inspect(log, LoadOptions(year=2026, use_cache=False))
    receiving = next(p for p in report.patterns if p.template.startswith("Receiving block"))
    kinds = {f.name: f.type for f in receiving.fields}
    assert kinds["src"] == "ip" and kinds["src port"] == "port" and kinds["dest port"] == "port"
    assert all(f.examples for p in report.patterns for f in p.fields)
