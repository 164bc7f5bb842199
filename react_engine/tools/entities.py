"""Entity extraction: MACs, IPs, users, interfaces... pulled out of the current rows and counted.

Extracted values are kept by the engine as `{type: Series}`, each value indexed by the frame row label it came
from (a label repeats when a line holds several). Counts always look at the values whose row is current, so a
filter applied after an extraction narrows the counts too.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from pydantic import Field

from react_engine.errors import ToolError
from react_engine.lexicon.entity_words import ENTITY_ROLES, LABELS
from react_engine.lexicon.stop_words import NOT_USER_NAMES
from react_engine.logs.macs import MAC_PATTERN, MAC_SEPARATED, normalize_array
from react_engine.logs.schema import INTERNAL_COLUMNS
from react_engine.logs.text import arrow_strings, entry_text
from react_engine.rows.ranked import brief, top
from react_engine.rows.rowops import count, labels, partitionwise, tally, value, within
from react_engine.tools.catalogued import catalogued, field_text
from react_engine.tools.param_types import OneOrMany
from react_engine.tools.regex import check, findall, text_matches
from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.results import EntityCounts, Extracted, ValuesCounted

Normaliser = Callable[[pd.Series], pd.Series]

_OCTET = r"(?:25[0-5]|2[0-4]\d|[01]?\d?\d)"  # zero-padded octets (059) too
_H4 = r"[0-9A-Fa-f]{1,4}"
_TLDS = {"com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "io", "cloud", "app", "dev", "local", "lan",
         "internal", "localdomain", "corp", "arpa", "example", "test", "invalid"}
_NAME = r"([A-Za-z0-9_$](?:[A-Za-z0-9._@$-]*[A-Za-z0-9_$])?)"  # a user name
_TWO_LETTER_FILES = {"js", "py", "so", "sh", "gz", "rb", "pl", "cc", "el", "md", "ts", "id"}  # not countries here


def _mac(values: pd.Series) -> pd.Series:
    """Any MAC notation -> `00:1d:d3:8e:d4:b7`; values that are not MACs are dropped."""
    return pd.Series(normalize_array(arrow_strings(values)), index=values.index, dtype="str").dropna()


def _lower(values: pd.Series) -> pd.Series:
    return values.str.lower()


def _per_unique(fn: Callable[[str], str | None]) -> Normaliser:
    """A normaliser applying `fn` once per distinct value; values mapped to None are dropped."""

    def normalise(values: pd.Series) -> pd.Series:
        mapped = values.map({v: fn(v) for v in values.unique()})
        return mapped[mapped.notna()].astype("str")

    return normalise


def _ip(text: str) -> str | None:
    """The address in canonical form; zero-padded IPv4 octets (`059.45.101.203`) are read as decimal."""
    parts = text.split(".")
    if len(parts) == 4 and all(p.isdigit() for p in parts):
        text = ".".join(str(int(p)) for p in parts)
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return None if text == "::" else str(address)


def _hostname(text: str) -> str | None:
    """Dotted names whose last label is a known top-level or country domain (not `org.apache.Foo`, `app.log`)."""
    tld = text.rsplit(".", 1)[-1].lower()
    known = tld in _TLDS or (len(tld) == 2 and tld not in _TWO_LETTER_FILES)
    return text.lower() if known else None


def _user(text: str) -> str | None:
    return None if text.lower() in NOT_USER_NAMES else text


def _url(text: str) -> str | None:
    return text.rstrip(".,;:)]}>'\"")


@dataclass(frozen=True)
class EntityType:
    """Where a built-in entity type is found: patterns on the line, and the parsed column when the frame has one."""

    patterns: tuple[str, ...]  # RE2; the first capture group is the value
    normalise: Normaliser | None = None
    column: str | None = None


BUILTIN: dict[str, EntityType] = {
    "mac": EntityType((rf"\b({MAC_SEPARATED})\b",), _mac),
    "ip": EntityType((rf"\b({_OCTET}(?:\.{_OCTET}){{3}})\b",
                      rf"(?:^|[^0-9A-Za-z:])((?:{_H4}:){{7,}}{_H4}|(?:{_H4}(?::{_H4})*)?::(?:{_H4}(?::{_H4})*)?)"),
                     _per_unique(_ip), "client_ip"),
    "email": EntityType((r"\b([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b",), _lower),
    "url": EntityType((r"\b([A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s\"'<>]+)",), _per_unique(_url)),
    "uuid": EntityType((r"\b([0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12})\b",), _lower),
    "hostname": EntityType((r"(?:^|[^A-Za-z0-9_.@-])((?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+"
                            r"[A-Za-z]{2,24})\b",),
                           _per_unique(_hostname)),
    "user": EntityType((r"(?i)(?:\buser(?:name)?(?:=|:\s*|\s+)|\b(?:login|account)(?:=|:\s*)"
                        r"|(?:password|publickey|keyboard-interactive(?:/pam)?|hostbased) for (?:invalid user )?)([A-Za-z0-9_$](?:[A-Za-z0-9._@$-]*[A-Za-z0-9_$])?)",),
                       _per_unique(_user), "user"),
    "invoking_user": EntityType((rf"(?:^|\s){_NAME}\s+:\s+(?:[^;=]*;\s+)?TTY=", rf"\bby {_NAME}\(uid=\d+\)",
                                 rf"\bruser={_NAME}", rf"\bsu for \S+ by {_NAME}"), _per_unique(_user)),
    "cm_mac": EntityType((rf"(?i)(?:\bcm[-_ ]?mac\s*[=:]\s*|\bcable modem\s+)({MAC_PATTERN})",), _mac, "cm_mac"),
    "cmts_mac": EntityType((rf"(?i)\bcmts[-_ ]?mac\s*[=:]\s*({MAC_PATTERN})",), _mac, "cmts_mac"),
    "interface": EntityType((r"\b((?:Integrated-Cable|Wideband-Cable|Modular-Cable|Cable|GigabitEthernet|Gi"
                             r"|TenGigabitEthernet|Te|FastEthernet|Fa|Ethernet|Bundle|Port-channel|Vlan|Loopback"
                             r"|Tunnel|Serial)\d+(?:/\d+)*(?:[:.]\d+)?"
                             r"|(?:eth|wlan|bond|br|en[ops]|wl[ps])\d+(?:[a-z]\d+)*)\b",),),
    "http_status": EntityType((r"(?:\"\s|(?i:\bstatus)[=:]\s*)([1-5]\d\d)\b",), None, "status"),
}
BUILTIN["target_user"] = BUILTIN["user"]  # the user a command ran as or a session was for (see ENTITY_ROLES)
_IPV4 = rf"/?({_OCTET}(?:\.{_OCTET}){{3}})\b"
BUILTIN["source_ip"] = EntityType((rf"(?i)\b(?:src|source)\s*[=:]\s*{_IPV4}", rf"\bfrom\s+{_IPV4}"), _per_unique(_ip))
BUILTIN["destination_ip"] = EntityType((rf"(?i)\b(?:dst|dest|destination)\s*[=:]\s*{_IPV4}", rf"\bto\s+{_IPV4}"),
                                       _per_unique(_ip))
ALIASES: dict[str, str] = {"mac_address": "mac", "ip_address": "ip", "ipv4": "ip", "ipv6": "ip", "username": "user",
                           "host": "hostname", "status": "http_status", "cm": "cm_mac", "cable_modem": "cm_mac",
                           "modem": "cm_mac", "cmts": "cmts_mac"}


def builtin(name: str) -> str | None:
    """The built-in type `name` refers to (case, plural and common aliases tolerated), or None."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    for candidate in (key, key.removesuffix("s"), key.removesuffix("es")):
        if candidate in BUILTIN or candidate in ALIASES:
            return ALIASES.get(candidate, candidate)
    return None


def extract(rows: pd.DataFrame, kind: str) -> pd.Series:
    """Values of the built-in type `kind` in `rows`, indexed by row label."""
    spec = BUILTIN[kind]
    text, found = entry_text(rows), []
    if spec.column and spec.column in rows.columns:  # the parsed column wins; the text fills rows it leaves empty
        parsed = rows[spec.column].astype("str")
        present = (parsed.notna() & (parsed.str.len() > 0)).to_numpy(dtype=bool)
        found.append(parsed[present])
        text = text[~present]
    values = pd.concat(found + [findall(text, pattern) for pattern in spec.patterns]).sort_index(kind="stable")
    return (spec.normalise(values) if spec.normalise and len(values) else values).rename(kind)


def normalised(kind: str, text: str) -> str:
    """`text` written the way values of type `kind` are stored (e.g. a MAC in colon form); unchanged otherwise."""
    spec = BUILTIN.get(kind)
    if spec is None or spec.normalise is None:
        return text
    value = spec.normalise(pd.Series([text], dtype="str"))
    return value.iloc[0] if len(value) else text


def current(ctx: ToolContext, kind: str) -> tuple[str, pd.Series, bool]:
    """`(name, values in the current rows, freshly extracted?)` for an extracted or built-in entity type, or a field
    of the messages' patterns (see `logs.field_catalog`: its values as written)."""
    if kind in ctx.entities:
        values = ctx.entities[kind]
        if ctx.rows is not ctx.frame:
            values = within(values, ctx.rows)
        return kind, values, False
    name = builtin(kind)
    if name in ctx.entities:
        return current(ctx, name)
    if name is None and (pattern_field := catalogued(ctx, kind)) is not None:
        return pattern_field.name, field_text(ctx.rows, pattern_field), True
    if name is None:
        known = sorted(set(BUILTIN) | set(ctx.entities))
        raise ToolError(f"unknown entity type {kind!r}; use one of {', '.join(known)} "
                        "or extract_entities with a pattern and a name")
    return name, in_role(ctx, name), True


FIELD_TYPES = {"http_status": "status codes"}
"""Built-in types that stand for a field of a kind of log (a web log's status), with their name in the plural: a
log that writes none has no such field, where a log without IP addresses has 0 of them."""


def held(ctx: ToolContext, name: str, values: pd.Series) -> pd.Series:
    """`values` of the type `name` in the current rows; for a field's type (FIELD_TYPES), a ToolError saying the
    logs have none when no line of the whole log holds one (a count of 0 would answer a question about a field the
    log does not have)."""
    if name not in FIELD_TYPES or len(values) or (
            count(ctx.rows) != count(ctx.frame) and len(extracted(ctx.frame, name))):
        return values
    raise ToolError(f"these logs have no {FIELD_TYPES[name]}")


def resolve_field(ctx: ToolContext, field: str) -> tuple[str, bool]:
    """`(name, is_entity)`: an extracted entity set, else a column (any case) unless it is empty in the current
    rows and `field` is also a built-in entity type (e.g. `user` for sshd lines), else a built-in entity type, else
    a field of the messages' patterns (`port`, `src`, `nm`), whose values `current` reads as an entity set."""
    folded = {str(name).lower(): str(name) for name in ctx.frame.columns if name not in INTERNAL_COLUMNS}
    if field in ctx.entities:
        return field, True
    name = folded.get(field.strip().lower())
    if name is not None and not (builtin(field) and value(ctx.rows[name].isna().all())):
        return name, False
    if builtin(field) or catalogued(ctx, field) is not None:
        return field, True
    raise ToolError(f"no column or entity type {field!r}; columns are: {', '.join(folded.values())}; "
                    f"entity types are: {', '.join(sorted(set(BUILTIN) | set(ctx.entities)))}")


def field_values(ctx: ToolContext, field: str) -> tuple[pd.Series, str, dict[str, pd.Series] | None]:
    """`(values, name, entity set to keep)`: the non-missing values of a column or entity type in the current
    rows, and the entity set when one was extracted for them."""
    name, is_entity = resolve_field(ctx, field)
    if not is_entity:
        return ctx.rows[name].dropna(), name, None
    name, values, fresh = current(ctx, name)
    values = held(ctx, name, values)
    return values, name, {name: values} if fresh else None


def extracted(rows: pd.DataFrame, kind: str) -> pd.Series:
    """`extract(rows, kind)`, run per partition on lazy rows."""
    return partitionwise(extract, rows, kind, meta=pd.Series(dtype="str", name=kind))


_ROLE_OF = {role: kind for kind, roles in ENTITY_ROLES.items() for role in roles}  # a role's type -> its kind
UNNAMED_ROLES = {"invoking_user": r"\bby \(uid=\d+\)|\bruser=(?:\s|$)"}
"""A role's mark written without a name (`by (uid=0)`, an empty `ruser=`): the lines hold the role, unnamed."""


def in_role(ctx: ToolContext, name: str) -> pd.Series:
    """`extracted(ctx.rows, name)`, for a kind the lines write in several roles (ENTITY_ROLES) settled on one: a
    ToolError when the rows hold the kind itself in two roles that differ on a line (`sudo: bob : ... USER=root`)
    or a role they write without a name (`by (uid=0)`); a role's values the others' when the rows write no other.
    A kind read in every role (`ip`) is asked in one only of the rows a question narrowed to an event ("which IP
    did ufw block"): all the addresses a whole log holds are every one it writes."""
    rows, values = ctx.rows, extracted(ctx.rows, name)
    if name in ENTITY_ROLES and (_read_in_a_role(name) or count(rows) != count(ctx.frame)):
        _one_role(rows, name)
    elif name in _ROLE_OF and _read_in_a_role(_ROLE_OF[name]) and not count(values):
        return _other_role(rows, name, values)
    return values


def _read_in_a_role(kind: str) -> bool:
    """Whether the built-in type `kind` reads its values in one of its roles (`user`: whom a command ran as or a
    session was for), not in all of them (`ip`)."""
    return BUILTIN[kind] in map(BUILTIN.get, ENTITY_ROLES[kind])


def _other_role(rows: pd.DataFrame, name: str, none: pd.Series) -> pd.Series:
    """The values of the first other role of `name`'s kind the rows write (`none` when they write none), under
    `name`; a ToolError when the rows also write `name`'s own role without a name."""
    roles = ENTITY_ROLES[_ROLE_OF[name]]
    found = {role: extracted(rows, role) for role in roles if role != name}
    other = next((role for role, values in found.items() if count(values)), None)
    if other is None:
        return none
    if name in UNNAMED_ROLES and value(partitionwise(_writes, rows, UNNAMED_ROLES[name],
                                                     meta=pd.Series(dtype=bool))).any():
        shown = ", ".join(map(str, value(found[other]).unique()[:3]))
        raise ToolError(f"these lines name none of {roles[name]} (they write no name for them), only "
                        f"{roles[other]} ({shown}; type {other})")
    return found[other].rename(name)


def _writes(rows: pd.DataFrame, pattern: str) -> pd.Series:
    """One flag for `rows`: whether some entry matches `pattern`."""
    return pd.Series([bool(text_matches(rows, pattern).any())])


def _one_role(rows: pd.DataFrame, kind: str) -> None:
    """A ToolError naming the roles when some row holds values of `kind` in two roles that differ."""
    roles = tuple(ENTITY_ROLES[kind])
    if not count(extracted(rows, roles[0])):
        return
    meta = pd.DataFrame({role: pd.Series(dtype="str") for role in roles})
    apart = value(partitionwise(_apart, rows, roles, meta=meta))
    if len(apart):
        written = " and ".join(f"{ENTITY_ROLES[kind][role]} ({', '.join(map(str, pd.unique(apart[role])[:3]))}; "
                               f"type {role})" for role in roles)
        raise ToolError(f"these lines name {LABELS[kind]} in several roles that differ: {written}: ask for one")


def _apart(rows: pd.DataFrame, roles: tuple[str, ...]) -> pd.DataFrame:
    """The rows whose values in the first two `roles` differ: each one's first value in each."""
    first, second = (extract(rows, role).groupby(level=0).first() for role in roles[:2])
    first, second = first.align(second, join="inner")
    differ = (first != second).to_numpy(dtype=bool)
    return pd.DataFrame({roles[0]: first[differ], roles[1]: second[differ]})


def describe(values: pd.Series) -> EntityCounts:
    """Total, unique and top values of one entity set, for a tool's value."""
    total, counts = tally(values)
    return EntityCounts(total=total, unique=len(counts), top=[(v, c) for v, c in top(counts, 3)])


class ExtractEntitiesParams(Params):
    types: OneOrMany = Field(description=f"entity types: {', '.join(BUILTIN)}; may be empty with a pattern")
    pattern: str | None = Field(None, description="custom RE2 regex; its first capture group is the value")
    name: str | None = Field(None, description="name for the custom pattern's values, e.g. block_id")


@tool("extract_entities", "find mac/ip/user/... or a custom regex in the current rows",
      ExtractEntitiesParams, Extracted)
def extract_entities(params: ExtractEntitiesParams, ctx: ToolContext) -> ToolResult:
    found = {name: in_role(ctx, name) for name in filter(None, map(builtin, params.types))}
    found.update(_patterned(params, ctx))
    if not found:
        raise ToolError(f"give types ({', '.join(BUILTIN)}) or a pattern with a name")
    value = {name: describe(values) for name, values in found.items()}
    summary = "; ".join(f"{brief(name)}: {v.total:,} found, {v.unique:,} unique" for name, v in value.items())
    return ToolResult(value=Extracted(value), summary=f"extract -> {summary} in {count(ctx.rows):,} rows", entities=found)


def _patterned(params: ExtractEntitiesParams, ctx: ToolContext) -> dict[str, pd.Series]:
    """The values of the custom pattern, under its name (or the one unknown type given, or "custom"); a ToolError
    for an unknown type without a pattern."""
    unknown = [t for t in params.types if builtin(t) is None]
    if params.pattern is None:
        if unknown:
            raise ToolError(f"unknown entity type {unknown[0]!r}; built-in types are {', '.join(BUILTIN)}, "
                            "or give a pattern and a name")
        return {}
    name = (params.name or (unknown[0] if len(unknown) == 1 else "custom")).strip() or "custom"
    check(params.pattern)
    return {name: partitionwise(_custom, ctx.rows, params.pattern, name, meta=pd.Series(dtype="str", name=name))}


def _custom(rows: pd.DataFrame, pattern: str, name: str) -> pd.Series:
    return findall(entry_text(rows), pattern).rename(name)


class CountEntitiesParams(Params):
    type: str = Field(description="an entity type (extracted ones, or built-in ones extracted on demand) or a column "
                                  "(host, pid, path...)")
    unique: bool = Field(True, description="count distinct values (true) or every occurrence (false)")


@tool("count_entities", "count (distinct) values of an entity type or a column", CountEntitiesParams, ValuesCounted)
def count_entities(params: CountEntitiesParams, ctx: ToolContext) -> ToolResult:
    found, name, extracted = field_values(ctx, params.type)
    total, counts = tally(found)
    number = len(counts) if params.unique else total
    rows = labels(found)
    return ToolResult(
        value=ValuesCounted(number),
        summary=f"count {'unique ' if params.unique else ''}{brief(name)} -> {number:,} in {count(ctx.rows):,} rows",
        entities=extracted, evidence=rows if len(rows) < count(ctx.rows) else None)
