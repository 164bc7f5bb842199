"""Key phrases and common events of the lexicon ("failed password", "connection refused") as searches; phrases
joined by "or" become one search for either."""

from __future__ import annotations

import re

from react_engine.lexicon.event_phrases import EVENTS, PHRASES
from react_engine.lexicon.stop_words import FILLER, FILLER_NOUNS
from react_engine.logs.wordforms import stem
from react_engine.question.interpretation import Term
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.question import Question
from react_engine.question.vocabulary import Vocabulary
from react_engine.tools.regex import literal

Found = tuple[int, int, str, bool, bool]  # where a phrase is, its text, whether a regex, whether case-sensitive


def read_phrases(q: Question, draft: Draft, vocabulary: Vocabulary) -> None:
    """Key phrases and common events as searches; phrases joined by "or" become one search for either."""
    found: list[Found] = [(m.start(), m.end(), m.group(0), False, False) for m in q.take(
        r"\b[A-Za-z][\w$.-]*\s[A-Za-z][\w$.-]*\b", accept=lambda m: _logged(m.group(0), vocabulary))]
    found += [(m.start(), m.end(), value.format(*m.groups()), regex, case)
              for pattern, value, regex, case in PHRASES for m in q.take(pattern)]
    found += _written_events(q, vocabulary)
    events: list[Found] = [(m.start(), m.end(), *_grounded(m.group(0), ways, vocabulary), False)
                           for pattern, ways in EVENTS for m in q.take(pattern)]
    draft.grounding.named += [text if regex else re.escape(text) for _, _, text, regex, _ in events]
    for group in _either(sorted(found + events), q.text):
        draft.terms += [Term(word=q.text[start:end], column="message", value=text) for start, end, text, *_ in group]
        _search_group(group, draft)


def _search_group(group: list[Found], draft: Draft) -> None:
    """Search for a phrase, or for either of the phrases joined by "or"."""
    if len(group) == 1:
        _, _, text, regex, case = group[0]
        draft.search(text, regex, f"matching /{text}/" if regex else f'containing "{text}"', case)
    else:
        pattern = "|".join(dict.fromkeys(text if regex else literal(text) for _, _, text, regex, _ in group))
        draft.search(pattern, True, f"matching /{pattern}/", all(case for *_, case in group))


def _written_events(q: Question, vocabulary: Vocabulary) -> list[Found]:
    """A common event named with the words around it as the log writes them ("connection request", "received
    connection", "connection attempt"): that phrase, where the lexicon's way of writing the event ("connect") would
    find every line naming a connection. The longest phrase the sampled lines hold, of one or two more words that
    are neither filler nor read already."""
    found: list[Found] = []
    for pattern, _ in EVENTS:
        for m in list(re.finditer(pattern, q.text, re.I)):
            if any(q.used[m.start():m.end()]):
                continue
            around = _around(q, m.start(), m.end(), vocabulary)
            if around is not None:
                q.consume(around[0], around[1])
                found.append((*around, False))
    return found


def _written(text: str) -> str:
    r"""A pattern for the words of `text` in any form and spacing ("connections closed": `connect\w*\s+clos\w*`)."""
    return r"\b" + r"\s+".join(re.escape(stem(w.lower())) + r"\w*" for w in text.split())


def _around(q: Question, start: int, end: int, vocabulary: Vocabulary) -> tuple[int, int, str, bool] | None:
    """The span, text or pattern (and whether a pattern) of the longest phrase holding `start:end` and up to two free words either side (no
    filler but its nouns: "request", "attempt") that the sampled lines write, in any form of its words, or None."""
    words = [w for w in re.finditer(r"[A-Za-z][\w-]*", q.text)]
    inside = [i for i, w in enumerate(words) if w.start() >= start and w.end() <= end]
    if not inside:
        return None
    first, last = inside[0], inside[-1]
    for a, b in _widened(first, last, len(words)):
        text = q.text[words[a].start():words[b].end()]
        if _free(q, [words[i] for i in [*range(a, first), *range(last + 1, b + 1)]]) and (
                logged := _as_logged(text, vocabulary)) is not None:
            return words[a].start(), words[b].end(), *logged
    return None


def _widened(first: int, last: int, count: int) -> list[tuple[int, int]]:
    """The spans of words `first`..`last` with up to two more words either side (of `count`), the longest first."""
    spans = [(a, b) for a in range(max(0, first - 2), first + 1) for b in range(last, min(count, last + 3))]
    return sorted((s for s in spans if s != (first, last)), key=lambda s: s[0] - s[1])


def _as_logged(text: str, vocabulary: Vocabulary) -> tuple[str, bool] | None:
    """`(text or pattern, whether a pattern)` for `text` as the sampled lines write it: as written, else in any
    form of its words; None when they do not, or `text` holds more than words, spaces and hyphens."""
    if not re.fullmatch(r"[A-Za-z][\w -]*", text):
        return None
    if vocabulary.together([rf"\b{re.escape(text)}\b"])[0]:
        return text, False
    if vocabulary.together([_written(text)])[0]:
        return _written(text), True
    return None


def _free(q: Question, words: list[re.Match[str]]) -> bool:
    """Whether none of `words` is read already or a filler word (other than a noun: "request", "attempt")."""
    return not any(w.group(0).lower() in FILLER - FILLER_NOUNS or any(q.used[w.start():w.end()]) for w in words)


def _either(found: list[Found], text: str) -> list[list[Found]]:
    """The phrases in groups of those joined by "or" (or a comma)."""
    groups: list[list[Found]] = []
    for item in found:
        if groups and re.fullmatch(r"\s*(?:,|or|and/or|, or)\s*", text[groups[-1][-1][1]:item[0]], re.I):
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _grounded(said: str, ways: tuple[str, ...], vocabulary: Vocabulary) -> tuple[str, bool]:
    """`(text, is_regex)`: the first way of writing an event whose words occur in the rows (the first way when
    none does, or when the rows' words are unknown); the words as `said`, whole, where the sampled lines write
    them on lines that way misses (OpenStack's "DELETE" requests are no "Deleting" lines, yet a "delete")."""
    chosen = next((way for way in ways if all(vocabulary.token_rows(w) for w in re.findall(
        r"[A-Za-z]{3,}", re.sub(r"\\[a-zA-Z]|\([^)]*\)|\[[^\]]*\]", " ", way)))), ways[0])
    regex = bool(re.search(r"[\\|()\[?]", chosen))
    written = rf"\b{re.escape(said)}\b"
    found = vocabulary.events.meet([written]) if vocabulary.sampled else 0
    if found > vocabulary.events.meet([written, chosen if regex else re.escape(chosen)]):
        return written, True
    return chosen, regex


def _logged(pair: str, vocabulary: Vocabulary) -> bool:
    """Whether two words of a question, a word the question may ask with ("broken", "generating") and one it does
    not, are written so in the sampled lines ("Connection broken", "generating core"): one search, the verb kept."""
    words = [w.lower() for w in pair.split()]
    verbs = [w in FILLER and re.fullmatch(r"\w{3,}(?:ing|ed|en)", w) is not None for w in words]
    return sum(verbs) == 1 and not any(w in FILLER for w, verb in zip(words, verbs) if not verb) and (
        vocabulary.together([re.escape(pair)])[0] > 0)
