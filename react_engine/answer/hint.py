"""The rephrase hint given with a refusal, in the loaded log's own words: its levels, components, hosts and
entity types."""

from __future__ import annotations

import difflib

from react_engine.question import Vocabulary

REPHRASE = "Please rephrase"  # how a refusal asks for the question again: no answer, never verified
GENERIC = ('"how many errors in the last hour", "top 5 IP addresses", "which component logged the most lines"')
_SEVERE = ("fatal", "severe", "crit", "critical", "error", "err", "e", "warn", "warning", "w")


def rephrase_hint(vocabulary: Vocabulary | None) -> str:
    """`try e.g. "...", "...", or put the exact log text in quotes`, with examples that fit these rows."""
    examples = _examples(vocabulary) if vocabulary is not None else []
    shown = ", ".join(examples[:4]) if examples else GENERIC
    return f"try e.g. {shown}, or put the exact log text in quotes"


def _examples(vocabulary: Vocabulary) -> list[str]:
    examples = []
    levels = list(vocabulary.values.get("level_raw", {}))
    severe = next((lv for lv in levels if lv.lower() in _SEVERE), levels[-1] if levels else None)
    if severe:
        examples.append(f'"how many {severe} lines"')
    components = list(vocabulary.values.get("component", {}))
    if components:
        examples.append(f'"how many lines from {components[0]}"')
    for column, word in (("component", "component"), ("host", "host"), ("thread", "thread")):
        if len(vocabulary.values.get(column, {})) > 1:
            examples.append(f'"which {word} logged the most lines"')
            break
    entity = {"ip": '"top 5 IP addresses"', "user": '"which user appears most often"',
              "uuid": '"how many unique request IDs"', "mac": '"how many unique MAC addresses"'}
    examples += [entity[t] for t in vocabulary.entity_types if t in entity][:1]
    if vocabulary.last is not None:
        examples.append('"how many lines in the last hour"')
    return examples


def closest_words(word: str, vocabulary: Vocabulary | None, n: int = 3) -> list[str]:
    """The words of the sampled messages closest in spelling to `word`, else the literal runs of the log's most
    common events: what the log writes, for a word it never uses."""
    if vocabulary is None:
        return []
    close = difflib.get_close_matches(word.lower(), list(vocabulary.tokens), n=n, cutoff=0.6)
    return close or [e.runs[0] for e in vocabulary.events.events if e.runs][:n]
