"""The rephrase hint given with a refusal, in the loaded log's own words: its levels, components, hosts and
entity types."""

from __future__ import annotations

import difflib
import re

from react_engine.lexicon.level_spellings import SEVERE_SPELLINGS
from react_engine.lexicon.statistic_words import STATISTIC_PHRASES
from react_engine.question import Vocabulary

REPHRASE = "Please rephrase"  # how a refusal asks for the question again: no answer, never verified
GENERIC = ('"how many errors in the last hour", "top 5 IP addresses", "which component logged the most lines"')


def rephrase_hint(vocabulary: Vocabulary | None) -> str:
    """`try e.g. "...", "...", or put the exact log text in quotes`, with examples that fit these rows."""
    examples = _examples(vocabulary) if vocabulary is not None else []
    shown = ", ".join(examples[:4]) if examples else GENERIC
    return f"try e.g. {shown}, or put the exact log text in quotes"


def _examples(vocabulary: Vocabulary) -> list[str]:
    examples = _counting(vocabulary)
    ranked = next((column for column in ("component", "host", "thread") if len(vocabulary.values.get(column, {})) > 1),
                  None)
    if ranked is not None:
        examples.append(f'"which {ranked} logged the most lines"')
    entity = {"ip": '"top 5 IP addresses"', "user": '"which user appears most often"',
              "uuid": '"how many unique request IDs"', "mac": '"how many unique MAC addresses"'}
    examples += [entity[t] for t in vocabulary.entity_types if t in entity][:1]
    if vocabulary.last is not None:
        examples.append('"how many lines in the last hour"')
    return examples


def _counting(vocabulary: Vocabulary) -> list[str]:
    """Questions that count the lines of a severe level and of the first component the rows write."""
    examples = []
    levels = list(vocabulary.values.get("level_raw", {}))
    severe = next((lv for lv in levels if lv.lower() in SEVERE_SPELLINGS), levels[-1] if levels else None)
    if severe:
        examples.append(f'"how many {severe} lines"')
    components = list(vocabulary.values.get("component", {}))
    if components:
        examples.append(f'"how many lines from {components[0]}"')
    return examples


def closest_words(word: str, vocabulary: Vocabulary | None, n: int = 3) -> list[str]:
    """The words of the sampled messages closest in spelling to `word`, else the literal runs of the log's most
    common events: what the log writes, for a word it never uses."""
    if vocabulary is None:
        return []
    close = difflib.get_close_matches(word.lower(), list(vocabulary.tokens), n=n, cutoff=0.6)
    return close or [e.runs[0] for e in vocabulary.events.events if e.runs][:n]


_AMBIGUOUS = re.compile(r"'(?P<asked>.+)' may be any of (?P<choices>.+): name one")
_NEEDS = re.compile(r"func=(?P<func>\w+) needs a numeric field; numeric fields: (?P<choices>.+)")
_NO_FIELD = re.compile(r"no numeric field '(?P<asked>.+)' in these logs; numeric fields: (?P<choices>.+)"
                       r"|no numeric field in a unit of (?P<kind>\w+) for '(?P<of>.+)'; numeric fields: (?P<all>.+)")


def _either(choices: str) -> str:
    """`a, b, c` as `a, b or c`."""
    first, _, last = choices.rpartition(", ")
    return f"{first} or {last}" if first else last


def _statistic(func: str) -> str:
    if func.startswith("p") and func[1:].isdigit():
        n = int(func[1:])
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"a {n}{suffix} percentile"
    return STATISTIC_PHRASES.get(func, func)


def failure_words(reason: str) -> str:
    """Why a tool could not run (written for a planner: its parameters, its choices), in the user's words with the
    choices: "'duration' may be any of time (s), Took (s): name one" is '"duration" could be time (s) or Took (s):
    ask again naming one'."""
    if found := _AMBIGUOUS.fullmatch(reason):
        return f'"{found["asked"]}" could be {_either(found["choices"])}: ask again naming one'
    if found := _NEEDS.fullmatch(reason):
        if found["choices"] == "none":
            return f"{_statistic(found['func'])} needs numbers to measure, and these logs hold none"
        return f"{_statistic(found['func'])} of what? Ask for one of {_either(found['choices'])}"
    if found := _NO_FIELD.fullmatch(reason):
        missing = (f'no numbers called "{found["asked"]}"' if found["asked"] else
                   f'no numbers in a unit of {found["kind"]} for "{found["of"]}"')
        choices = found["choices"] or found["all"]
        if choices == "none":
            return f"these logs hold {missing}, nor any others to measure"
        return f"these logs hold {missing}: ask for one of {_either(choices)}"
    return re.sub(r"\b[a-z_]+=(\S+)", r"\1", reason)  # no parameter names in the user's text
