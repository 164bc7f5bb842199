"""The reply schema simplified for Ollama: self-contained, no $ref/oneOf/const, same accepted replies."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from react_engine.contract.actions import reply_schema
from react_engine.contract.reply_schema import MAX_STRING, simplify_schema
from react_engine.tools.registry import Params, Tool, ToolResult
from react_engine.tools.results import Counted


class Window(BaseModel):
    start: str | None = None
    end: str | None = None


class ByHost(BaseModel):
    kind: Literal["host"]
    host: str


class ByText(BaseModel):
    kind: Literal["text"]
    text: str = Field(pattern=r"[a-z]+")


class FilterParams(Params):
    severity: Literal["error", "warning"] | None = None
    window: Window | None = None
    match: Annotated[ByHost | ByText, Field(discriminator="kind")]


class TopParams(Params):
    column: str
    n: int = Field(5, ge=1, le=50)


def _run(params: Any, ctx: Any) -> ToolResult:
    return ToolResult(value=Counted(0), summary="")


TOOLS = {
    "filter_rows": Tool("filter_rows", "narrow the rows", FilterParams, _run, Counted),
    "top_values": Tool("top_values", "most common values", TopParams, _run, Counted),
}


def _keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in _keys(v)}
    if isinstance(node, list):
        return {k for v in node for k in _keys(v)}
    return set()


@pytest.fixture(scope="module")
def schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    original = reply_schema(TOOLS)
    return original, simplify_schema(original)


def test_the_original_uses_what_ollama_ignores(schemas):
    original, _ = schemas
    assert {"$ref", "$defs", "oneOf", "const"} <= _keys(original)


def test_simplified_schema_has_no_refs_oneof_const_or_titles(schemas):
    _, simple = schemas
    assert not _keys(simple) & {"$ref", "$defs", "oneOf", "const", "title", "default", "discriminator"}
    assert len(simple["anyOf"]) == len(TOOLS)
    actions = [branch["properties"]["action"] for branch in simple["anyOf"]]
    assert actions == [{"enum": [name], "description": tool.description, "type": "string"} for name, tool in TOOLS.items()]


def test_patterns_are_anchored_and_optional_nulls_dropped(schemas):
    _, simple = schemas
    params = simple["anyOf"][0]["properties"]["params"]["properties"]
    text_branch = next(b for b in params["match"]["anyOf"] if "text" in b["properties"])
    assert text_branch["properties"]["text"]["pattern"] == "^[a-z]+$"
    assert params["severity"] == {"enum": ["error", "warning"], "type": "string"}
    assert params["window"]["properties"]["start"] == {"type": "string", "maxLength": MAX_STRING}  # bounded


def test_inlining_keeps_sibling_keywords():
    schema = {"$defs": {"A": {"type": "object", "title": "A"}}, "$ref": "#/$defs/A", "description": "d"}
    assert simplify_schema(schema) == {"type": "object", "description": "d"}


def test_recursive_references_are_refused():
    schema = {"$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}}, "$ref": "#/$defs/N"}
    with pytest.raises(ValueError, match="cannot inline"):
        simplify_schema(schema)


_matches = st.one_of(
    st.fixed_dictionaries({"kind": st.just("host"), "host": st.text(max_size=5)}),
    st.fixed_dictionaries({"kind": st.just("text"), "text": st.from_regex("[a-z0-9]{0,4}", fullmatch=True)}),
)
replies = st.one_of(
    st.fixed_dictionaries(
        {
            "reasoning": st.text(max_size=20),
            "action": st.just("top_values"),
            "params": st.fixed_dictionaries({"column": st.sampled_from(["host", "pid"]), "n": st.integers(-2, 60)}),
        }
    ),
    st.fixed_dictionaries(
        {
            "reasoning": st.text(max_size=20),
            "action": st.sampled_from(["filter_rows", "drop_rows"]),
            "params": st.fixed_dictionaries(
                {"match": _matches},
                optional={"severity": st.sampled_from(["error", "warning", "info"])},
            ),
        }
    ),
)


@settings(max_examples=80, deadline=None)
@given(replies)
def test_simplified_schema_is_never_looser_and_otherwise_equal(schemas, reply):
    original, simple = schemas
    simple_ok, original_ok = _valid(simple, reply), _valid(original, reply)
    assert original_ok or not simple_ok, json.dumps(reply)
    text = reply["params"].get("match", {}).get("text", "")
    if not (re.search("[a-z]", text) and not re.fullmatch("[a-z]+", text)):  # anchoring only narrows these
        assert simple_ok == original_ok, json.dumps(reply)


def _valid(schema: dict[str, Any], instance: Any) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(instance)
