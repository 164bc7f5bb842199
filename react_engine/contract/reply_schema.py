"""Reduce a pydantic JSON schema to the portable subset that schema-to-grammar converters honour.

Ollama ignores or rejects schemas that use `$ref`, `oneOf` or `const`, and a `pattern` without anchors;
llama.cpp's converter (which Ollama and llama-cpp-python use) and outlines-core reject a property with no type.
The simplified schema is self-contained: references are inlined, `oneOf` becomes `anyOf`, `const` becomes a
one-value `enum`, an optional property loses its `null` branch (the model may simply omit it), a property of
any type becomes a typed union (`ANY_VALUE`), a string with no other bound gets `maxLength` and an array
`maxItems` (a small model under a grammar can otherwise fill its whole token budget with one string or list,
and a reply must fit the one-action budget of `remote.ACTION_TOKENS`), and keys that carry no constraint
(titles, defaults, examples) are dropped. Keys are sorted, so that every grammar asks for properties in one order.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from react_engine.tools.registry import Tool

_KEEP = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "prefixItems", "enum", "anyOf",
        "allOf", "minItems", "maxItems", "minLength", "maxLength", "pattern", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "description", "format",
    }
)  # fmt: skip

MAX_STRING = 200
MAX_ITEMS = 16
_BOUNDED = frozenset({"maxLength", "enum", "pattern", "format"})
_TYPED = frozenset({"type", "enum", "anyOf", "allOf", "properties", "items"})
_SCALARS: list[dict[str, Any]] = [{"type": "string", "maxLength": MAX_STRING}, {"type": "number"}, {"type": "boolean"}]
_LIST: dict[str, Any] = {"type": "array", "maxItems": MAX_ITEMS}
# What "any JSON value" is narrowed to: a scalar, a list of scalars, or a list of lists of scalars
# (top_values' [value, count] pairs), so that every branch has a type.
ANY_VALUE: dict[str, Any] = {
    "anyOf": [
        *_SCALARS,
        {**_LIST, "items": {"anyOf": [*_SCALARS, {**_LIST, "items": {"anyOf": _SCALARS}}]}},
    ]
}


@lru_cache(maxsize=64)
def portable_reply_schema(tools: tuple[Tool, ...]) -> dict[str, Any]:
    """The simplified reply schema for exactly these tools (cached: an engine offers the same set each turn)."""
    from react_engine.contract.actions import reply_schema

    return simplify_schema(reply_schema({t.name: t for t in tools}))


def simplify_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Return a self-contained copy of `schema` that uses only keys Ollama's grammar supports, its keys sorted:
    a grammar asks for properties in the order they are listed, so every server asks for them in one order
    (`action`, `params`, `reasoning`), the order of the prompt's examples."""
    simple = _simplify(schema, schema.get("$defs", {}), ())
    return json.loads(json.dumps(simple, sort_keys=True))


def _simplify(node: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_simplify(item, defs, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name in seen or name not in defs:
            raise ValueError(f"cannot inline schema reference {node['$ref']!r}")
        merged = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
        return _simplify(merged, defs, (*seen, name))
    out: dict[str, Any] = {}
    for key, value in node.items():
        out.update(_kept(key, value, defs, seen))
    return _bounded(out)


def _kept(key: str, value: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> dict[str, Any]:
    """One key of a schema node in the form grammars support (`oneOf` as `anyOf`, `const` as `enum`, patterns
    anchored), or nothing when no grammar needs it."""
    if key == "oneOf":
        key = "anyOf"
    if key == "const":
        return {"enum": [value]}
    if key == "properties":
        return {key: {name: _simplify(sub, defs, seen) for name, sub in value.items()}}
    if key == "pattern":
        return {key: _anchored(value)}
    return {key: _simplify(value, defs, seen)} if key in _KEEP else {}


def _bounded(out: dict[str, Any]) -> dict[str, Any]:
    """A simplified node with every property typed, an optional one not nullable, and every string and list
    bounded."""
    if "properties" in out:
        required = set(out.get("required", ()))
        out["properties"] = {
            name: _typed(sub if name in required else _drop_null(sub)) for name, sub in out["properties"].items()
        }
    if len(out.get("allOf", ())) == 1:
        out = {**out.pop("allOf")[0], **out}
    if out.get("type") == "string" and not _BOUNDED & out.keys():
        out["maxLength"] = MAX_STRING
    if out.get("type") == "array" and "maxItems" not in out:
        out["maxItems"] = MAX_ITEMS
    return out


def _typed(node: dict[str, Any]) -> dict[str, Any]:
    """`node` with `ANY_VALUE` in place of a missing type."""
    return node if _TYPED & node.keys() else {**ANY_VALUE, **node}


def _drop_null(node: dict[str, Any]) -> dict[str, Any]:
    """`anyOf[T, null]` -> `T` (keeping the outer description)."""
    branches = [b for b in node.get("anyOf", ()) if b != {"type": "null"}]
    if len(branches) != 1 or len(node["anyOf"]) != 2:
        return node
    rest = {k: v for k, v in node.items() if k != "anyOf"}
    return {**branches[0], **rest}


def _anchored(pattern: str) -> str:
    return ("" if pattern.startswith("^") else "^") + pattern + ("" if pattern.endswith("$") else "$")
