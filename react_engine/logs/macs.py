"""MAC addresses in any notation (colon, Cisco dotted, hyphen, bare 12-hex) to `aa:bb:cc:dd:ee:ff`."""

from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import blank_to_null, concat

MAC_PATTERN = (
    r"(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}|[0-9A-Fa-f]{12}"
)
_SEPARATORS = re.compile(r"[.:-]")
_HEX12 = re.compile(r"[0-9a-f]{12}")


def normalize(text: str | None) -> str | None:
    """One MAC in canonical form, or None when `text` is not a MAC."""
    if not text:
        return None
    digits = _SEPARATORS.sub("", text.strip().lower())
    if not _HEX12.fullmatch(digits):
        return None
    return ":".join(digits[i : i + 2] for i in range(0, 12, 2))


def normalize_array(values: pa.Array) -> pa.Array:
    """`normalize` over an Arrow string array (null where not a MAC)."""
    digits = pc.replace_substring_regex(pc.utf8_lower(values), r"[.:-]", "")
    valid = pc.match_substring_regex(digits, r"^[0-9a-f]{12}$")
    pairs = [pc.utf8_slice_codeunits(digits, i, i + 2) for i in range(0, 12, 2)]
    joined = concat(pairs[0], ":", pairs[1], ":", pairs[2], ":", pairs[3], ":", pairs[4], ":", pairs[5])
    return blank_to_null(pc.if_else(valid, joined, ""))
