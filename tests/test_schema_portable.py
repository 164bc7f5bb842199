"""The reply schema converts to a grammar with every schema-to-grammar converter that installs here as a library."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.contract.actions import reply_schema
from react_engine.contract.reply_schema import simplify_schema
from react_engine.tools import REGISTRY

SCHEMA = simplify_schema(reply_schema(REGISTRY))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
# What tools compute and finalize_answer.value carries: counts, text, [value, count] pairs, lists of values
scalars = st.one_of(st.integers(-(10**9), 10**9), st.floats(allow_nan=False, allow_infinity=False, width=32),
                    st.text(max_size=20), st.booleans())  # fmt: skip
values = st.one_of(scalars, st.lists(scalars, max_size=4), st.lists(st.tuples(st.text(max_size=10), st.integers(0, 99)).map(list), max_size=4))  # fmt: skip


def _untyped(node: Any, where: str = "") -> list[str]:
    """Paths of schema nodes under `properties`/`items`/`anyOf` that say nothing about their type."""
    if not isinstance(node, dict):
        return []
    found = [] if {"type", "enum", "anyOf", "allOf"} & node.keys() else [where or "/"]
    for name, sub in node.get("properties", {}).items():
        found += _untyped(sub, f"{where}/{name}")
    for i, sub in enumerate(node.get("anyOf", [])):
        found += _untyped(sub, f"{where}/anyOf{i}")
    if "items" in node:
        found += _untyped(node["items"], f"{where}/items")
    return found


def _finalize(value: Any) -> dict[str, Any]:
    return {"reasoning": "computed", "action": "finalize_answer", "params": {"answer": "done", "value": value}}


def test_every_property_is_typed_and_nothing_is_referenced() -> None:
    assert _untyped(SCHEMA) == []
    text = json.dumps(SCHEMA)
    assert not {"$ref", "$defs", "oneOf", "const"} & set(re.findall(r'"(\$?[A-Za-z]+)":', text))


@settings(deadline=None)
@given(values)
def test_any_computed_value_fits_the_schema(value: Any) -> None:
    VALIDATOR.validate(_finalize(value))


def test_outlines_core_converts_it_and_its_regex_accepts_replies() -> None:
    json_schema = pytest.importorskip("outlines_core.json_schema", reason="pip install outlines-core to run this")
    pattern = re.compile(json_schema.build_regex_from_schema(json.dumps(SCHEMA)))
    replies = [_finalize(3), _finalize([["host-a", 2], ["host-b", 1]]), _finalize("aa:bb:cc:dd:ee:ff"),
               {"reasoning": "narrow", "action": "filter_by_field", "params": {"field": "host", "value": "db1"}},
               {"reasoning": "count", "action": "get_log_count", "params": {}}]  # fmt: skip
    for reply in replies:
        assert pattern.fullmatch(json.dumps(reply)), reply
    assert not pattern.fullmatch(json.dumps({"reasoning": "x", "action": "Severity: Missing 2000", "params": {}}))


def test_llama_cpp_converts_it_to_a_grammar() -> None:
    llama_cpp = pytest.importorskip(
        "llama_cpp", reason='pip install -e ".[llamacpp]" (see README, Models, for the build flags) to run this'
    )
    grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(SCHEMA), verbose=False)
    assert "finalize_answer" in grammar._grammar and "get_log_count" in grammar._grammar


def test_every_string_is_bounded() -> None:
    def strings(node: Any) -> list[dict[str, Any]]:
        if isinstance(node, list):
            return [s for item in node for s in strings(item)]
        if not isinstance(node, dict):
            return []
        return ([node] if node.get("type") == "string" else []) + [s for v in node.values() for s in strings(v)]

    found = strings(SCHEMA)
    assert found and all({"maxLength", "enum", "pattern"} & s.keys() for s in found)


def test_every_grammar_asks_for_the_keys_in_the_order_of_the_prompt_examples() -> None:
    for variant in SCHEMA["anyOf"]:
        assert list(variant["properties"]) == ["action", "params", "reasoning"]
        params = variant["properties"]["params"].get("properties", {})
        assert list(params) == sorted(params)
