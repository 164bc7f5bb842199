"""MAC addresses in any notation (colon, hyphen, Cisco dotted, bare 12-hex) to `aa:bb:cc:dd:ee:ff`.

A written MAC has its own separators in their places: six pairs joined by `:` or by `-`, or three groups of four
joined by `.`. Twelve hex digits alone count only where the context says a MAC follows (`CM-MAC=…`).
"""

from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import blank_to_null, concat

MAC_SEPARATED = (
    r"(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}|(?:[0-9A-Fa-f]{2}-){5}[0-9A-Fa-f]{2}"
    r"|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}"
)
MAC_PATTERN = MAC_SEPARATED + r"|[0-9A-Fa-f]{12}"
_WHOLE = f"^(?:{MAC_PATTERN})$"
_MAC = re.compile(_WHOLE)
_SEPARATORS = r"[.:-]"


def normalize(text: str | None) -> str | None:
    """One MAC in canonical form, or None when `text` is not a MAC."""
    if not text or not _MAC.match(text.strip()):
        return None
    digits = re.sub(_SEPARATORS, "", text.strip().lower())
    return ":".join(digits[i : i + 2] for i in range(0, 12, 2))


def normalize_array(values: pa.Array) -> pa.Array:
    """`normalize` over an Arrow string array (null where not a MAC)."""
    valid = pc.match_substring_regex(values, _WHOLE)
    digits = pc.replace_substring_regex(pc.utf8_lower(values), _SEPARATORS, "")
    pairs = [pc.utf8_slice_codeunits(digits, i, i + 2) for i in range(0, 12, 2)]
    joined = concat(pairs[0], ":", pairs[1], ":", pairs[2], ":", pairs[3], ":", pairs[4], ":", pairs[5])
    return blank_to_null(pc.if_else(pc.fill_null(valid, False), joined, ""))


def any_notation(mac: str) -> str:
    """An RE2 pattern for one canonical MAC written in any notation: `001d.d38e.d4b7`, `00-1D-…`, bare."""
    return r"\b" + "[:.-]?".join(mac.split(":")) + r"\b"
