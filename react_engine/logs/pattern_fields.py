"""The fields of a message pattern: each variable position (`<*>`) of a template, named by the log's own words
beside it and typed from the values its lines write there.

A position is named by the constant text before it: a `key=value` or `key: value` pair (`size=<*>`, `src: /<*>`),
a word and a space (`port <*>`, `TID <*>`, `from <*>`), or a word and a bracket (`acpi_id[<*>]`); a number followed
by a unit (`<*> ms`, `<*> bytes`) is named by the word before it, else by its unit. A value written as an address
with its port (`10.250.19.102:54106`) is two fields, the address under the position's name and its port under that
name and "port". A position no word names is named by its type. Types are read from the values: integer, float,
ip, port, duration and bytes (a number with a time or size unit), time (a clock time or a date), id (a token with
a digit, a hexadecimal number, a UUID), or text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import pyarrow as pa

from react_engine.lexicon.measure_units import DURATION_NAMES, SIZE_NAMING_WORDS, SIZE_WORDS
from react_engine.lexicon.stop_words import PATTERN_FIELD_STOPS
from react_engine.logs.fields import unit_of
from react_engine.logs.templates import WILDCARD, masked, merge

FieldType = Literal["integer", "float", "ip", "port", "duration", "bytes", "time", "id", "text"]
EXAMPLES = 3  # distinct values shown per field
NAME_CHARS = 48  # the text before a position its name is read from
MAX_POSITIONS = 24  # the most variable positions of a pattern whose fields are read

_IP = r"\d{1,3}(?:\.\d{1,3}){3}"
_PORT = r"\d{1,5}"
_INTEGER = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?\d*\.\d+(?:[eE][-+]?\d+)?")
_ADDRESS = re.compile(rf"/?((?=[\w.\-/]*[A-Za-z]|{_IP}:)[\w.\-/]*?[A-Za-z0-9]):({_PORT})")  # an address or host, its port
_ADDRESS_ONLY = re.compile(rf"/?{_IP}")
_CLOCK = re.compile(r"\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?\S*)?")
_UNITED = re.compile(r"([-+]?\d+(?:\.\d+)?)\s*([A-Za-z]+)")
_ID = re.compile(r"(?=\S*\d)[\w.:/\-@#$]+|0[xX][0-9a-fA-F]+|[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
# the name before a position: `key=`, `key: `, `key:`, `key `, `key[`, `key(`, `key #`, `key: [`, then maybe a `/`
_NAMED = re.compile(r"([A-Za-z][\w.\-]*?)[.\-]?(?:\s*[=:#]\s*[\[(]?|\s+|[\[(])[/\"']{0,2}$")
_UNIT_AFTER = re.compile(r"^\s+([A-Za-z]+)\b(?:[ \t]*\([^()]{0,30}\))?(?:[ \t]+([A-Za-z]+))?")
JOINED = re.compile(r"<\*>(?::<\*>)+")  # one value masking parts at its colons (`<*>:<*>`: an address and port)


@dataclass(frozen=True)
class PatternField:
    """One field of a pattern: its name, type, the unit its values are written in ("" when none), which variable
    position of the pattern holds it (from 0), some of its values as written, and which part of the position's text
    it is, outermost first: all of it (`()`), the `k`th of `n` tokens (`"token:k:n"`), the value after a key as
    written (`"key:user"`), an address's host or port (`"address"`, `"port"`)."""

    name: str
    type: FieldType
    position: int
    examples: tuple[str, ...]
    unit: str = ""
    part: tuple[str, ...] = ()


def regex(template: str) -> re.Pattern[str]:
    """The pattern of the messages a template covers: its constants as written (any run of spaces alike), a group
    for each variable position."""
    parts = [r"\s+".join(re.escape(word) for word in piece.split(" ")) for piece in template.split(WILDCARD)]
    return re.compile("(.*?)".join(parts), re.DOTALL)


def values(template: str, messages: Iterable[str]) -> list[list[str]]:
    """The values each variable position of `template` holds in the `messages` it covers (a message it does not
    cover adds none)."""
    pattern = regex(template)
    found: list[list[str]] = [[] for _ in range(template.count(WILDCARD))]
    for message in messages:
        m = pattern.fullmatch(message.strip())
        for column, value in zip(found, m.groups() if m else (), strict=False):
            column.append(value)
    return found


def pattern_fields(template: str, messages: Iterable[str]) -> list[PatternField]:
    """The fields of `template` over the `messages` it covers (positions holding no value are left out), each
    named as the module docstring says; a name used twice gets its position's number."""
    template = JOINED.sub(WILDCARD, template)
    if template.count(WILDCARD) > MAX_POSITIONS:
        return []  # a list of values, not fields (and a regex of that many lazy groups may backtrack long)
    pieces = template.split(WILDCARD)
    found: list[PatternField] = []
    for position, written in enumerate(values(template, messages)):
        held = [v.strip() for v in written if v.strip()]
        if held and all(len(v.split()) == 1 for v in held):  # one token: without a comma or semicolon ending it
            found += _typed(pieces[position], pieces[position + 1], position, [v.rstrip(",;") or v for v in held],
                            ("token:0:1",))
        elif held:
            found += _typed(pieces[position], pieces[position + 1], position, held) if _whole(held) else _split(
                pieces[position], position, held)
    return _unique_names(found)


SPLIT_TOKENS = 4  # the most tokens a position's values may hold to be read as that many values


def _whole(held: Sequence[str]) -> bool:
    """Whether a position's values are one value each: not every one the same 2 to SPLIT_TOKENS tokens (`42393
    ssh2` after "port": masking joins tokens in a row into one position)."""
    counts = {len(v.split()) for v in held}
    return len(counts) != 1 or not 1 < counts.pop() <= SPLIT_TOKENS


def _split(before: str, position: int, held: Sequence[str]) -> list[PatternField]:
    """The values of a position that writes the same number of tokens on every line, token by token (without a
    comma or semicolon ending one): the first named by the word before the position, the others as `_typed` names
    them."""
    columns = list(zip(*([t.rstrip(",;") or t for t in v.split()] for v in held), strict=True))
    found = _typed(before, " " if len(columns) > 1 else "", position, columns[0], (f"token:0:{len(columns)}",))
    for k, column in enumerate(columns[1:], 1):
        found += _typed(" ", "", position, column, (f"token:{k}:{len(columns)}",))
    return found


def _typed(before: str, after: str, position: int, held: Sequence[str], part: tuple[str, ...] = ()
           ) -> list[PatternField]:
    """The field (or the address and port fields) one position (or the `part` of it) holds; values that all write
    one `key=` before them (`user=root` after "rhost=<*> ") are that key's."""
    name, held, key = _keyed(_name_before(before), held)
    part += (f"key:{key}",) if key else ()
    addresses = [m for v in held if (m := _ADDRESS.fullmatch(v))]
    if len(addresses) == len(held):
        host = _typed(before, "", position, [m.group(1) for m in addresses])[0]
        return [replace(host, part=(*part, "address")),
                PatternField(f"{name} port" if name else "port", "port", position,
                             _examples(m.group(2) for m in addresses), "", (*part, "port"))]
    unit, word = _unit_after(after)
    kind, unit = _named_type(name, *value_type(held, unit))
    shown = [v.lstrip("/") for v in held] if kind == "ip" else held
    return [PatternField(name or (f"{unit} {word}".lower() if word else unit) or kind, kind, position,
                         _examples(shown), unit, part)]


def _keyed(name: str, held: Sequence[str]) -> tuple[str, Sequence[str], str]:
    """`(name, values, key)`: with no name, the key every value writes before "=" (as written) and the values after
    it, if they do; else `name`, the values and ""."""
    pairs = [v.split("=", 1) for v in held]
    if name or len({p[0] for p in pairs}) != 1 or not all(len(p) == 2 and p[1] for p in pairs):
        return name, held, ""
    return _name_before(pairs[0][0] + "="), [p[1] for p in pairs], pairs[0][0]


def value_type(held: Sequence[str], unit_after: str = "") -> tuple[FieldType, str]:
    """The type of the values `held` (and their unit as written, "" when none): a number followed by a time or
    size unit (`unit_after`, or written onto each value: "120ms") is a duration or bytes."""
    if all(_INTEGER.fullmatch(v) or _FLOAT.fullmatch(v) for v in held):
        return (_measured(unit_after), unit_after) if unit_after else (_number(held), "")
    united = [m.group(2) for v in held if (m := _UNITED.fullmatch(v)) and unit_of(m.group(2))]
    if len(united) == len(held) and united:
        return _measured(united[0]), united[0] if len(set(united)) == 1 else ""
    kinds: tuple[tuple[FieldType, re.Pattern[str]], ...] = (("ip", _ADDRESS_ONLY), ("time", _CLOCK), ("id", _ID))
    return next((kind for kind, form in kinds if all(form.fullmatch(v) for v in held)), "text"), ""


def _number(held: Sequence[str]) -> FieldType:
    return "integer" if all(_INTEGER.fullmatch(v) for v in held) else "float"


def _measured(unit: str) -> FieldType:
    """The type of a number written in `unit`: bytes or a duration."""
    return "bytes" if unit_of(unit) == "bytes" else "duration"


def _named_type(name: str, kind: FieldType, unit: str) -> tuple[FieldType, str]:
    """An integer's type as its name says it (`port <*>`: a port; `size <*>`: bytes; `took <*>`: a duration)."""
    if kind == "time" and name in DURATION_NAMES:
        return "duration", unit  # `lifetime 00:02`: a clock's form of a duration
    if kind != "integer":
        return kind, unit
    if name == "port":
        return "port", unit
    return ("bytes" if name in SIZE_WORDS else "duration" if name in DURATION_NAMES else kind), unit


def _unit_after(after: str) -> tuple[str, str]:
    """The unit written right after a position ("<*> ms"), or "", and the word after the unit that names what
    it measures ("<*> bytes sent", "<*> bytes (<*> KB) received"), or ""."""
    m = _UNIT_AFTER.match(after)
    if m is None or not unit_of(m.group(1)):
        return "", ""
    word = (m.group(2) or "").lower()
    return m.group(1), word if word in SIZE_NAMING_WORDS or (word.endswith("ed") and len(word) > 3) else ""


def _name_before(before: str) -> str:
    """The word naming the position after `before` (see the module docstring), lower case; "" when none does."""
    if before and before[-1:].isalnum():
        return ""  # the value runs on from a word (`blk_<*>`): no name
    m = _NAMED.search(before[-NAME_CHARS:])  # the tail only: a search of a long text before would be quadratic
    if m is None:
        return ""
    name = m.group(1).lower()
    return "" if name in PATTERN_FIELD_STOPS or len(name) < 2 else name


def _examples(written: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(written))[:EXAMPLES]


def _unique_names(fields: list[PatternField]) -> list[PatternField]:
    """The fields with each name once: a name several positions share gets the position's number (`ip 2`)."""
    seen = [f.name for f in fields]
    return [f if seen.count(f.name) == 1 else replace(f, name=f"{f.name} {f.position + 1}") for f in fields]


@dataclass(frozen=True)
class FieldedPattern:
    """A message pattern, the sampled messages it covers and its fields."""

    template: str
    rows: int
    fields: tuple[PatternField, ...]


def fielded_patterns(messages: Sequence[str], limit: int, read: int = 50) -> list[FieldedPattern]:
    """The `limit` patterns covering most of `messages` that have a field, with their fields read from up to `read`
    of their distinct messages (the patterns are merged as `templates.merge` merges a load's masks)."""
    counts: dict[str, int] = {}
    for message in messages:
        counts[message] = counts.get(message, 0) + 1
    distinct = list(counts)
    masks = masked(pa.array(distinct, pa.large_string())).to_pylist()
    by_mask: dict[str, list[str]] = {}
    for mask, message in zip(masks, distinct, strict=True):
        by_mask.setdefault(str(mask), []).append(message)
    kinds = list(by_mask)
    merged = merge(kinds, [sum(counts[m] for m in by_mask[k]) for k in kinds])
    covered: dict[int, list[str]] = {}
    for kind, group in zip(kinds, merged.group, strict=True):
        covered.setdefault(int(group), []).extend(by_mask[kind])
    ranked = sorted(covered.items(), key=lambda item: (-sum(counts[m] for m in item[1]), item[0]))
    found = []
    for group, held in ranked:
        fields = pattern_fields(merged.templates[group], held[:read])
        if fields:
            found.append(FieldedPattern(merged.templates[group], sum(counts[m] for m in held), tuple(fields)))
    return found[:limit]
