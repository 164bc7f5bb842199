"""The field catalogue of a load: its message patterns with their fields (see `logs.pattern_fields`), found once in
the sampled messages, and how each field is read from the rows.

A field is read where its pattern's lines write it: an RE2 pattern of the template's constant text, any text at its
other positions and the field's part of its own position (see `reader`), run over the lines holding the template's
longest word. A name several patterns share (`port` in "Failed password ... port <*>" and "Accepted password ...
port <*>") is one field read by each pattern's reader. A field of numbers (integer, float, port, bytes, duration, each
value a number maybe with its unit) is a `fields.NumericField` to the measuring tools; every field is text to the
tools that count, rank, filter and order values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import TypeAdapter

from react_engine.lexicon.measure_units import UNIT_ALTERNATIVES
from react_engine.logs.fields import NUMBER, SAMPLE_ROWS, NumericField, fold, unit_of
from react_engine.logs.pattern_fields import JOINED, FieldedPattern, PatternField, fielded_patterns
from react_engine.logs.templates import WILDCARD

NUMERIC_TYPES = frozenset({"integer", "float", "port", "bytes", "duration"})
_IP = r"\d{1,3}(?:\.\d{1,3}){3}"
_HOST = r"[\w.\-/]*?[A-Za-z0-9]"
_NUMBER = re.compile(rf"{NUMBER}(?:\s*(?:{UNIT_ALTERNATIVES}))?", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z_\-]{2,}")
_PATTERNS = TypeAdapter(tuple[FieldedPattern, ...])


def _constant(text: str) -> str:
    """A template's constant text as an RE2 pattern: its words as written, any run of spaces alike."""
    return r"\s+".join(re.escape(word) for word in text.split(" "))


def _value(field: PatternField, unit_after: bool) -> str:
    """The pattern of the field's value (group `v`, and `u` for a unit written onto a size or a duration, in any
    case, which `fields.read` scales it by)."""
    if numeric(field):
        united = not unit_after and field.type in ("bytes", "duration")
        return rf"(?P<v>{NUMBER})" + (rf"(?:\s*(?P<u>(?i:{UNIT_ALTERNATIVES})))?" if united else "")
    if field.type == "ip":
        return rf"/?(?P<v>{_IP})"
    if field.part[-1:] == ("address",):
        return rf"(?P<v>{_HOST})"
    return r"(?P<v>\S+?)[,;]?" if any(p.startswith("token") for p in field.part) else r"(?P<v>.*?)"


def _in_part(inner: str, part: str) -> str:
    """`inner` placed in one `part` of a position's text (see `PatternField`)."""
    if part == "address":
        return rf"/?{inner}:\d{{1,5}}"
    if part == "port":
        return rf"/?{_HOST}:{inner}"
    if part.startswith("key:"):
        return re.escape(part[4:]) + "=" + inner
    _, k, n = part.split(":")
    return rf"(?:\S+\s+){{{k}}}{inner}(?:\s+\S+){{{int(n) - int(k) - 1}}}"


def reader(template: str, field: PatternField) -> str:
    """The RE2 pattern reading `field` from the lines of `template` (their whole message, as `pattern_fields.regex`
    matches it), its value in group `v` (a number's unit, when written, in `u`)."""
    pieces = JOINED.sub(WILDCARD, template).split(WILDCARD)
    after = pieces[field.position + 1]
    unit_after = bool(field.unit) and after.lstrip().lower().startswith(field.unit.lower()) and after[:1].isspace()
    value = _value(field, unit_after)
    for part in reversed(field.part):
        value = _in_part(value, part)
    if unit_after and "(?P<v>" in value:
        rest = after.lstrip()[len(field.unit):]
        after_text = rf"\s+(?P<u>{re.escape(field.unit)})" + (_constant(rest) if rest else "")
    else:
        after_text = _constant(after)
    parts = [_constant(p) for p in pieces]
    parts[field.position + 1] = after_text
    body = "".join(p + (value if i == field.position else "(?:.*?)" if i < len(pieces) - 1 else "")
                   for i, p in enumerate(parts))
    return rf"(?s)^\s*{body}\s*$"


def named(field: PatternField) -> bool:
    """Whether a word of the log names the field, not its type or unit alone (`port` is both a type and a word)."""
    return field.type == "port" or fold(field.name).split()[0] not in (field.type, field.unit.lower())


def numeric(field: PatternField) -> bool:
    """Whether the field is a number on every line: a numeric type and each example a number (maybe with a unit)."""
    return field.type in NUMERIC_TYPES and all(_NUMBER.fullmatch(e) for e in field.examples)


def _unit(field: PatternField) -> str:
    """"bytes", "s" or "" for the unit a field's values are read in: a size's is bytes though its lines write several
    units (`fields.read` scales each by its own)."""
    return unit_of(field.unit) or ("bytes" if field.type == "bytes" else "")


def _word(template: str) -> str:
    """The template's longest constant word (lower case): a line without it is no line of the template."""
    words = _WORD.findall(template.replace(WILDCARD, " "))
    return max(words, key=len).lower() if words else ""


@dataclass(frozen=True)
class FieldCatalog:
    """The message patterns of a load that have fields, with their fields, most sampled lines first."""

    patterns: tuple[FieldedPattern, ...] = ()

    @classmethod
    def build(cls, messages: list[str]) -> FieldCatalog:
        """The catalogue of the sampled `messages` (every pattern with a field)."""
        return cls(tuple(fielded_patterns(messages, SAMPLE_ROWS)))

    def names(self) -> list[str]:
        """Every field's name, once, in the order the patterns list them."""
        return list(dict.fromkeys(f.name for p in self.patterns for f in p.fields))

    def held(self, name: str) -> list[tuple[FieldedPattern, PatternField]]:
        """The patterns writing a field of that name (any case, `_`, `-`, `.` and spaces alike) and its field there;
        a field no word of the log names (named by its type: `integer`, `id 2`) is no field of that name across
        patterns, so it is named only in its own (see `named`)."""
        key = fold(name)
        return [(p, f) for p in self.patterns for f in p.fields if fold(f.name) == key and named(f)]

    def field(self, name: str) -> NumericField | None:
        """The field `name` as read from the lines of every pattern writing it (its values as text), or None."""
        held = self.held(name)
        if not held:
            return None
        unit = next((u for _, f in held if (u := _unit(f))), "")
        return NumericField(held[0][1].name, unit, tuple(dict.fromkeys((_word(p.template), reader(p.template, f))
                                                                      for p, f in held)),
                            sum(p.rows for p, _ in held))

    def numeric_field(self, name: str) -> NumericField | None:
        """The field `name` when it is a number wherever it is written, in one unit (read as `field` reads it), or
        None."""
        held = self.held(name)
        if held and all(numeric(f) for _, f in held) and len({_unit(f) for _, f in held}) == 1:
            return self.field(name)
        return None

    def numeric_fields(self) -> tuple[NumericField, ...]:
        """The fields that are numbers wherever they are written (see `numeric_field`)."""
        return tuple(f for name in self.names() if (f := self.numeric_field(name)) is not None)

    def to_json(self) -> bytes:
        """The catalogue as JSON (see `from_json`)."""
        return _PATTERNS.dump_json(self.patterns)

    @classmethod
    def from_json(cls, data: bytes | memoryview) -> FieldCatalog:
        """The catalogue `to_json` wrote; a ValidationError for anything else."""
        return cls(_PATTERNS.validate_json(bytes(data)))


def with_catalogued(found: tuple[NumericField, ...], catalog: FieldCatalog) -> tuple[NumericField, ...]:
    """The numeric fields `found` in the messages, then those of the catalogue no name of them names already."""
    taken = {fold(f.name) for f in found}
    return found + tuple(f for f in catalog.numeric_fields() if fold(f.name) not in taken)
