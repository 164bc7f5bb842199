"""A number a question locates by the words around it, when no field of the logs is named that way: "the average
task attempt progress" reads `0.02` in `Progress of TaskAttempt attempt_1 is : 0.02`, "the max bytes result sent to
driver" reads `2703` in `2703 bytes result sent to driver`.

A sampled message holding every word of the question (besides filler and the words of a unit, such as "time" or
"bytes") gives the template: the number nearest to those words (one written with the asked unit, when the question
names one), and the text from the farthest of those words to it, with the parts that carry digits read as any text.
That text and the number become one field's pattern, read over the rows like any message field.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

import pandas as pd

from react_engine.lexicon.measure_units import LOCATING_DURATION_WORDS, LOCATING_SIZE_WORDS, UNIT_ALTERNATIVES
from react_engine.lexicon.stop_words import LOCATING_FILLER
from react_engine.logs.fields import NUMBER, NumericField, fold, read, unit_of
from react_engine.logs.wordforms import split_words, stem

_TOKEN = re.compile(r"[^\s=:,;()\[\]{}\"']+")
_UNIT_WORDS = LOCATING_DURATION_WORDS | LOCATING_SIZE_WORDS  # words of a unit, which locate no message
_WINDOW = 6  # tokens between a word of the question and the number


def located(asked: str, messages: Iterable[str]) -> NumericField | None:
    """The field `asked` locates in `messages` (the message whose number has the most of its words near), or
    None."""
    content, words = _asked_words(asked)
    holding = _holding(messages, content) if content else []
    found = [f for m in holding if (f := _in(m, asked, (content, words), _unit_wanted(words))) is not None]
    if not found:
        return None
    best = max(found, key=lambda f: f[0])[1]
    return best if _carried_by_most(holding, best) else None


def _asked_words(asked: str) -> tuple[list[str], list[str]]:
    """The question's words that name the number (no filler, no unit) and all its words but filler."""
    words = [w for w in re.findall(r"[a-z0-9_]+", asked.lower()) if w not in LOCATING_FILLER and not w.isdigit()]
    return [w for w in words if w not in _UNIT_WORDS], words


def _holding(messages: Iterable[str], words: list[str]) -> list[str]:
    """The messages that hold the first letters of each word's root."""
    roots = [stem(w)[:4] for w in words]
    return [m for m in messages if all(r in m.lower() for r in roots)]


def _carried_by_most(messages: list[str], field: NumericField) -> bool:
    """At least half the `messages` carry the field: a number only a few of the messages holding the words carry
    ("message repeated 5 times: [ Failed password ...]" for "failed passwords") is no measure of them."""
    return 2 * read(pd.Series(messages, dtype=object), field).notna().sum() >= len(messages)


def _unit_wanted(words: list[str]) -> str:
    """The unit the question's words ask a number in: seconds for a time, bytes for a size, else any."""
    return "s" if set(words) & LOCATING_DURATION_WORDS else "bytes" if set(words) & LOCATING_SIZE_WORDS else ""


def holds_everywhere(asked: str, name: str, messages: list[str]) -> bool:
    """Whether every message holds each word of `asked` that the field's `name` does not ("received" in "size
    received", once the rows are the received blocks'), so the name alone says which number is meant."""
    named = set(fold(name).split())
    rest = [stem(w) for w in re.findall(r"[a-z0-9_]+", asked.lower())
            if w not in LOCATING_FILLER | _UNIT_WORDS | named and not w.isdigit()]
    return all(r in m.lower() for r in rest for m in messages)


def _matches(token: str, word: str) -> bool:
    """Whether a message token writes the question's word (any case, any form, or as a part of a camelCase name)."""
    lower = token.lower()
    return lower == word or stem(lower) == stem(word) or stem(word) in {stem(p) for p in split_words(token)} or (
        len(word) >= 6 and lower.startswith(word))


def _in(message: str, asked: str, words: tuple[list[str], list[str]], wanted: str
        ) -> tuple[tuple[int, int, int], NumericField] | None:
    """How well one message holds the asked words (its number written in the asked unit, how many words are near
    it, less the distance) and the field it gives, or None when it lacks a word of `content` or a number near them."""
    content, every = words
    tokens = list(_TOKEN.finditer(message))
    at_words = [i for i, t in enumerate(tokens) if _is_word(t.group(), every)]
    near = _nearest(tokens, at_words, every, wanted) if all(_held(tokens, at_words, w) for w in content) else None
    if near is None:
        return None
    distance, at = near
    close = [w for w in at_words if abs(w - at) <= _WINDOW]
    held = sum(_held(tokens, close, w) for w in every)
    score = (int(bool(wanted) and _unit(tokens, at) == wanted), held, -distance)
    return score, _field(message, tokens, at, close, asked)


def _held(tokens: list[re.Match[str]], at: list[int], word: str) -> bool:
    """One of the tokens at `at` writes `word`."""
    return any(_matches(tokens[i].group(), word) for i in at)


def _nearest(tokens: list[re.Match[str]], at_words: list[int], every: list[str], wanted: str
             ) -> tuple[int, int] | None:
    """`(distance, token)` of the number nearest the question's words (at tokens `at_words`, sorted), one before
    them first at equal distance; None when no number of the measure lies within the window."""
    near = [(_distance(at_words, i), i < at_words[0], i) for i in _numbers(tokens, wanted)
            if not _named_otherwise(tokens, i, every)]
    near = [n for n in near if n[0] <= _WINDOW]
    if not near:
        return None
    distance, _, at = min(near)
    return distance, at


def _named_otherwise(tokens: list[re.Match[str]], i: int, words: list[str]) -> bool:
    """Whether the number at token `i`, written without a unit, follows a word of its own that the question does
    not say ("user 0" in "Failed none for invalid user 0": the user's, not a measure of "failed none"; "took 7
    ms" is a measure)."""
    before = tokens[i - 1].group() if i else ""
    return bool(re.fullmatch(r"[A-Za-z_][\w.-]*", before)) and before.lower() not in LOCATING_FILLER | _UNIT_WORDS and (
        not _unit(tokens, i) and not _is_word(before, words))


def _distance(at: list[int], i: int) -> int:
    """How many tokens lie from token `i` to the nearest of `at` (sorted): looked up, not measured to each one (a
    message of 3,000 words and numbers took 15 s)."""
    after = bisect.bisect_left(at, i)
    return min(abs(at[j] - i) for j in (after - 1, after) if 0 <= j < len(at))


def _is_word(token: str, words: list[str]) -> bool:
    return not re.search(r"\d", token) and any(_matches(token, w) for w in words)


def _numbers(tokens: list[re.Match[str]], wanted: str) -> list[int]:
    """Where the numbers are; for a `wanted` unit ("time"), those written with it, or all when none has a unit."""
    numbers = [i for i, t in enumerate(tokens) if re.fullmatch(NUMBER, t.group()) and _whole(t)]
    if not wanted:
        return numbers
    united = [i for i in numbers if _unit(tokens, i) == wanted]
    return united or ([] if any(_unit(tokens, i) for i in numbers) else numbers)


def _whole(token: re.Match[str]) -> bool:
    """Whether a number token stands as a number of its own: after a space, `=`, `:` or an opening bracket, and
    before a space, a unit or closing punctuation, not as a part of an address, a time or a name (`0000:00:1f.0`,
    `12:30:01`, `8086/2410`)."""
    text, start, end = token.string, token.start(), token.end()
    before = text[start - 1] if start else " "
    after = text[end:end + 2]
    if before == ":" and re.search(r"\d\S*:$", text[:start]):
        return False  # "00:1f", "12:30": one part of a colon-joined value ("free: 5", "sid:5" are a name's)
    return (before.isspace() or before in "=:([{'\"") and (
        not after or after[0].isspace() or after[0] in ",;)]}'\"" or (after[0] in ".:" and after[1:] in ("", " ")))


def _unit(tokens: list[re.Match[str]], at: int) -> str:
    """The unit ("s", "bytes" or "") written right after the number at token `at`."""
    return unit_of(tokens[at + 1].group()) if at + 1 < len(tokens) else ""


def _field(message: str, tokens: list[re.Match[str]], at: int, words: list[int], asked: str) -> NumericField:
    number, unit = tokens[at], _unit(tokens, at)
    value, written = rf"(?P<v>{NUMBER})", rf"[ \t]*(?P<u>{UNIT_ALTERNATIVES})\b" if unit else ""
    if words[0] > at:  # "2703 bytes result sent to driver": the number, then the words
        after = tokens[at + 1].end() if unit else number.end()
        text = value + written + _anchor(message[after:tokens[max(words)].end()])
    else:  # "Progress of TaskAttempt attempt_1 is : 0.02": the words, then the number
        text = _anchor(message[tokens[min(words)].start():number.start()]) + value + written
    return NumericField(asked.strip(), unit, ((tokens[min(words)].group(), "(?i)" + text),))


def _anchor(text: str) -> str:
    """Literal text as a pattern: runs of space match any space, and a part that carries digits any such part."""
    parts = re.split(r"(\s+)", text)
    return "".join(r"\s+" if p.isspace() else r"\S+" if re.search(r"\d", p) else re.escape(p) for p in parts if p)
