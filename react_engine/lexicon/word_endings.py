"""The endings English words take, which matching a question's words with a log's strips: plurals and the suffixes
of a crude stem."""

from __future__ import annotations

PLURAL_ES = ("sses", "xes", "ches", "shes")
"""Plural endings whose "es" goes with the "s" ("addresses" -> "address", "matches" -> "match")."""

SUFFIXES = ("ations", "ation", "ings", "ing", "ions", "ion", "ures", "ure", "als", "al", "ies", "es", "ed", "s", "er",
            "e")
"""Suffixes a crude stem strips, longest of each family first ("failures" -> "fail", "renewal" -> "renew")."""
