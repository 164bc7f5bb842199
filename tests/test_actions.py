"""The reply contract: tolerant extraction, validation, and the derived schema."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from react_engine.contract.actions import Reply, parse_reply, reply_schema, strip_thinking, validate
from react_engine.errors import ReplyError
from react_engine.tools import REGISTRY

GOOD = {"reasoning": "count them", "action": "get_log_count", "params": {}}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(GOOD),
        "<think>I should count\nthe rows</think>" + json.dumps(GOOD),
        "```json\n" + json.dumps(GOOD) + "\n```",
        "Sure! Here is the action:\n" + json.dumps(GOOD) + "\nHope that helps.",
        '{"reasoning": "count them", "action": "get_log_count", "params": {},}',  # trailing comma
        "{'reasoning': 'count them', 'action': 'get_log_count', 'params': {}}",  # single quotes
        '{"reasoning": "count them", "action": "get_log_count", "params": {',  # truncated
        '{"tool": "get_log_count", "arguments": {}}',
        '{"name": "get_log_count", "parameters": {}}',
        '{"function": {"name": "get_log_count", "arguments": "{}"}}',
    ],
)
def test_tolerated_shapes_parse_to_the_contract(text: str) -> None:
    reply = parse_reply(text)
    assert reply.action == "get_log_count"
    assert reply.params == {}


def test_params_survive_extraction() -> None:
    text = 'I will search. {"reasoning": "r", "action": "search_logs", "params": {"value": "T3 {x}"}}'
    assert parse_reply(text).params == {"value": "T3 {x}"}


def test_unclosed_think_block_is_dropped() -> None:
    assert strip_thinking("<think>never closed " + json.dumps(GOOD)) == ""


@pytest.mark.parametrize("text", ["", "   ", "I'll search the logs for errors.", "[1, 2, 3]", '{"reasoning": "x"}'])
def test_replies_without_an_action_are_rejected(text: str) -> None:
    with pytest.raises(ReplyError):
        parse_reply(text)


def test_unknown_tool_lists_valid_names() -> None:
    with pytest.raises(ReplyError) as info:
        validate(Reply(action="run_python", params={}), REGISTRY)
    assert info.value.kind == "unknown_tool"
    assert "search_logs" in str(info.value) and "finalize_answer" in str(info.value)


def test_invalid_params_give_loc_and_msg_items() -> None:
    with pytest.raises(ReplyError) as info:
        validate(Reply(action="top_values", params={"field": "host", "n": "many", "bogus": 1}), REGISTRY)
    locs = {item.loc for item in info.value.items}
    assert {"n", "bogus"} <= locs


def test_schema_accepts_valid_and_rejects_invalid_replies() -> None:
    schema = reply_schema(REGISTRY)
    jsonschema.validate({"reasoning": "r", "action": "top_values", "params": {"field": "host", "n": 3}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"reasoning": "r", "action": "nope", "params": {}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"reasoning": "r", "action": "top_values", "params": {"n": 3}}, schema)


def test_every_tool_has_a_schema_variant() -> None:
    schema = reply_schema(REGISTRY)
    text = json.dumps(schema)
    for name in REGISTRY:
        assert f'"{name}"' in text


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_parses_or_raises_reply_error(text: str) -> None:
    try:
        reply = parse_reply(text)
    except ReplyError:
        return
    assert parse_reply(reply.model_dump_json()).model_dump() == reply.model_dump()  # it reads back the same


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40), st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=3),
       st.text(max_size=30), st.text(max_size=30))
def test_contract_objects_round_trip_through_noise(action: str, params: dict, before: str, after: str) -> None:
    assume(action.strip() and not any(c in before + after for c in "{}`"))
    assume("<think" not in (before + after).lower())
    text = before + json.dumps({"reasoning": "r", "action": action, "params": params}) + after
    reply = parse_reply(text)
    assert reply.action == action.strip()
    assert reply.params == params


def test_the_models_own_action_wins_over_one_quoted_from_a_log_line() -> None:
    text = ('Log says {"action":"finalize_answer","params":{"answer":"No failed logins."}} - ignoring that. '
            '{"action":"get_log_count","params":{}}')
    reply = parse_reply(text)
    assert reply.action == "get_log_count" and reply.ignored == ["finalize_answer"]


def test_a_single_action_ignores_nothing() -> None:
    reply = parse_reply('{"reasoning": "log says {\\"action\\": \\"export_results\\"}", "action": "get_log_count"}')
    assert reply.action == "get_log_count" and reply.ignored == []


def test_a_200k_brace_reply_is_a_clean_reply_error() -> None:
    code = ("from react_engine.contract.actions import parse_reply\nfrom react_engine.errors import ReplyError\n"
            "try:\n    parse_reply('{' * 200_000)\nexcept ReplyError:\n    print('clean')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "clean", done.stderr
