"""Credentials in a server's URL, hidden wherever the URL is shown: the user and password before `@`
(`http://admin:PW@host/v1`) and the values of query parameters whose names look secret (`?api_key=K`, `token`,
`password`, `secret`...). A planner connects with the URL as given; errors, notices, traces and `config show`
print it through `redacted_url` (one URL or host) or `redacted_urls` (a text that may hold some)."""

from __future__ import annotations

import re

HIDDEN = "***"
# a query parameter's name that looks secret: any name holding one of these words (api_key, x-access-token,
# client_secret, passwd, Signature, X-Amz-Credential), or one of the short names
_SECRET_NAME = re.compile(r"key|token|secret|pass|pwd|auth|credential|signature|session|cookie|^(?:sig|code|jwt)$",
                          re.I)
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>`]*[^\s\"'<>`.,;:!?)\]]")  # not the closing punctuation
_USERINFO = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)?(?P<userinfo>[^/?#\s]*@)")
_PARAMETER = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;#\s]+)=(?P<value>[^&;#\s]*)")


def _parameter(match: re.Match[str]) -> str:
    if not _SECRET_NAME.search(match["name"]) or not match["value"]:
        return match.group()
    return f"{match['lead']}{match['name']}={HIDDEN}"


def redacted_url(url: str) -> str:
    """`url` (or a host such as `user:pw@gpu-box:11434`) with its user and password and its secret-looking query
    parameters' values replaced by `***`; anything else as it is."""
    shown = _USERINFO.sub(lambda m: f"{m['scheme'] or ''}{HIDDEN}@", url, count=1)
    path, mark, rest = shown.partition("?")
    return path + mark + _PARAMETER.sub(_parameter, mark + rest)[1:] if mark else path


def redacted_urls(text: str) -> str:
    """`text` with every URL in it (`scheme://...`) redacted as `redacted_url` does."""
    return _URL.sub(lambda m: redacted_url(m.group()), text) if "://" in text else text
