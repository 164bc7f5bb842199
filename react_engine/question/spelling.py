"""Conservative typo correction: a word known nowhere is read as the closest known word, when it is close enough."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from react_engine.question.interpretation import Correction
from react_engine.question.vocabulary import Vocabulary, singular, stem

CUTOFF = 0.79  # Damerau-Levenshtein similarity: one edit (a swap counts as one) per five letters at most
NAME_CUTOFF = 0.85  # for names: one edit per seven characters at most
MIN_LENGTH = 4
MIN_NAME_LENGTH = 6
_WORD = re.compile(r"(?<![\w.'/@:-])([A-Za-z][a-z]+)(?![\w.'/@:-])")
# a name as written: a dotted, dashed or underscored word, one with digits, capitals inside, or all capitals
_NAME = re.compile(r"(?<![\w.'/@:-])([A-Za-z][\w.-]*[A-Za-z0-9])(?![\w'/@:-])")
_NAME_LIKE = re.compile(r"[._\d-]|.[A-Z]")
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|`[^`]*`|(?<!\w)'[^']*'(?!\w)")


def correct(text: str, known: Collection[str], candidates: Sequence[str], quoted: bool = True
            ) -> tuple[str, list[Correction]]:
    """`text` with each unknown lower-case word of at least `MIN_LENGTH` letters replaced by the closest of
    `candidates` that starts with the same letter and scores at least `CUTOFF` (as written, in the singular:
    "sesions" -> "session" when the rows say only "session", or by its stem: "destoryed" -> "destroying" when the
    rows say only that); quoted text (unless `quoted` is
    false), names with digits or capitals inside, and words in `known` (lower case) are kept as written."""
    spans = [m.span() for m in _QUOTED.finditer(text)] if quoted else []
    found = []
    for m in _WORD.finditer(text):
        word = m.group(1)
        if len(word) < MIN_LENGTH or word.lower() in known or _inside(m.start(), spans):
            continue
        best = _corrected(word.lower(), candidates)
        if best is not None:
            found.append((m, best))
    return replaced(text, found)


def _corrected(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate `word` misspells (as written, in the singular or by its stem), or None when none is close or
    the closest is only another form of it ("sessions" for "session")."""
    best = _closest(word, candidates) or _closest(singular(word), candidates) or _closest_form(word, candidates)
    return None if best is None or stem(best) == stem(word) else best


def _inside(at: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= at < b for a, b in spans)


def replaced(text: str, found: list[tuple[re.Match[str], str]]) -> tuple[str, list[Correction]]:
    """`text` with the span of each match replaced by its correction, and the corrections."""
    out, pos = [], 0
    for m, best in found:
        out.append(text[pos:m.start()] + best)
        pos = m.end()
    return "".join(out) + text[pos:], [Correction(written=m.group(1), read_as=best) for m, best in found]


def _closest_form(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate whose stem `word`'s stem is closest to, as the candidate is written."""
    forms = _forms(tuple(candidates))
    best = _closest(stem(word), tuple(forms))
    return forms[best] if best is not None else None


@functools.lru_cache(maxsize=8)
def _forms(candidates: tuple[str, ...]) -> dict[str, str]:
    """Each stem of `candidates` and the first candidate with it."""
    forms: dict[str, str] = {}
    for candidate in candidates:
        forms.setdefault(stem(candidate), candidate)
    return forms


def correct_names(text: str, vocabulary: Vocabulary, known: Collection[str]) -> tuple[str, list[Correction]]:
    """`text` with each name the rows do not hold ("SogouClod.exe", "DHCPREQEST", "Step_ExtSMD") replaced by the
    one name of the rows it misspells: a host, component or thread as written, else a message word (in capitals
    when written so). Names differing in their digits are different names; quoted text, words in `known` (lower
    case) and names of the loaded files are kept as written."""
    if not vocabulary.sampled:
        return text, []
    spans = [m.span() for m in _QUOTED.finditer(text)]
    found = []
    for m in _NAME.finditer(text):
        name = m.group(1)
        if _kept_name(name, vocabulary, known) or _inside(m.start(), spans):
            continue
        if (best := _closest_name(name, vocabulary.names())) is not None:
            found.append((m, best))
    return replaced(text, found)


def _kept_name(name: str, vocabulary: Vocabulary, known: Collection[str]) -> bool:
    """Whether `name` is kept as written: too short or not name-like, known, a loaded file's, or the rows' own."""
    return len(name) < MIN_NAME_LENGTH or not _NAME_LIKE.search(name) or name.lower() in known or \
        vocabulary.names_log(name) or vocabulary.holds(name)


def _closest_name(name: str, names: Sequence[str]) -> str | None:
    """The name of `names` that `name` misspells (compared in lower case, with the same digits), or None."""
    by_lower: dict[str, str] = {}
    for candidate in names:
        if re.sub(r"\D", "", candidate) == re.sub(r"\D", "", name):
            by_lower.setdefault(candidate.lower(), candidate)
    best = _closest(name.lower(), tuple(by_lower), NAME_CUTOFF)
    if best is None or best == name.lower():
        return None
    found = by_lower[best]
    return found.upper() if name.isupper() and found.islower() else found


def similar(word: str, pool: Sequence[str] | Mapping[Any, str], cutoff: float, limit: int | None = None
            ) -> list[tuple[str, float, Any]]:
    """`(candidate, similarity, position or key)` of the candidates in `pool` whose Damerau-Levenshtein similarity to
    `word` (a swap counts as one edit) is at least `cutoff`, most similar first; `limit`: at most that many."""
    from rapidfuzz import process  # imported by the first question with a name or word to compare
    from rapidfuzz.distance import DamerauLevenshtein

    return process.extract(word, pool, scorer=DamerauLevenshtein.normalized_similarity, score_cutoff=cutoff,
                           limit=limit)


def _closest(word: str, candidates: Sequence[str], cutoff: float = CUTOFF) -> str | None:
    """The best candidate sharing the first letter (on a tie, the one as long as `word`), or None when none is
    close enough or two different words tie."""
    found = similar(word, [c for c in candidates if _comparable(word, c)], cutoff)
    if not found:
        return None
    top = max(score for _, score, _ in found)
    best = sorted({str(c) for c, score, _ in found if score == top}, key=lambda c: abs(len(c) - len(word)))
    return None if len(best) > 1 and _tied(word, best[0], best[1]) else best[0]


def _comparable(word: str, candidate: str) -> bool:
    """Whether `candidate` may be what `word` misspells: the same first letter, at most two letters more or fewer,
    and long enough."""
    return candidate[:1] == word[:1] and abs(len(candidate) - len(word)) <= 2 and len(candidate) >= MIN_LENGTH


def _tied(word: str, first: str, second: str) -> bool:
    """Whether two equally close candidates are as long as each other next to `word` and different words."""
    return abs(len(first) - len(word)) == abs(len(second) - len(word)) and stem(first) != stem(second)
