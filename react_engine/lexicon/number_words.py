"""Numbers written as words ("the top five", "in the last two hours")."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

NUMBER_WORDS: Mapping[str, int] = MappingProxyType({
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "sixty": 60})
"""A number word and its value; the articles count one ("an hour ago")."""

COUNT_WORDS: Mapping[str, int] = MappingProxyType({w: n for w, n in NUMBER_WORDS.items() if w not in ("a", "an")})
"""The number words that state how many of something ("the last three errors"), which an article never does."""

AMOUNT = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"
"""An amount, in digits or in words, as group 1."""

ORDINALS = ("second", "third", "fourth", "fifth", "2nd", "3rd", "4th", "5th")
"""A place in a ranking other than the first ("the second most"), which no reading answers."""

SMALL_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
"""The number words from zero to nineteen, in order: with `TENS` and `SCALES` every number an answer may spell out
("two thousand three hundred and five"), of which `NUMBER_WORDS` holds the few that questions count with."""

TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
"""The tens from twenty to ninety, in order."""

SCALES: Mapping[str, float] = MappingProxyType(
    {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12})
"""A scale word and the number it multiplies by ("2 million")."""

SPELLED_NUMBERS: Mapping[str, int] = MappingProxyType(
    {**{w: i for i, w in enumerate(SMALL_NUMBERS)}, **{w: 20 + 10 * i for i, w in enumerate(TENS)}})
"""A number word below a hundred that adds its value (`SMALL_NUMBERS` and `TENS`) -> the value."""
