"""Key phrases and common events of the lexicon ("failed password", "connection refused") as searches; phrases
joined by "or" become one search for either."""

from __future__ import annotations

import re

from react_engine.question.interpretation import Term
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.lexicon import EVENTS, FILLER, PHRASES
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
    events: list[Found] = [(m.start(), m.end(), *_grounded(ways, vocabulary), False) for pattern, ways in EVENTS
                           for m in q.take(pattern)]
    draft.grounding.named += [text if regex else re.escape(text) for _, _, text, regex, _ in events]
    for group in _either(sorted(found + events), q.text):
        draft.terms += [Term(word=q.text[start:end], column="message", value=text) for start, end, text, *_ in group]
        if len(group) == 1:
            _, _, text, regex, case = group[0]
            draft.search(text, regex, f"matching /{text}/" if regex else f'containing "{text}"', case)
        else:
            pattern = "|".join(dict.fromkeys(text if regex else literal(text) for _, _, text, regex, _ in group))
            draft.search(pattern, True, f"matching /{pattern}/", all(case for *_, case in group))


def _either(found: list[Found], text: str) -> list[list[Found]]:
    """The phrases in groups of those joined by "or" (or a comma)."""
    groups: list[list[Found]] = []
    for item in found:
        if groups and re.fullmatch(r"\s*(?:,|or|and/or|, or)\s*", text[groups[-1][-1][1]:item[0]], re.I):
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _grounded(ways: tuple[str, ...], vocabulary: Vocabulary) -> tuple[str, bool]:
    """`(text, is_regex)`: the first way of writing an event whose words occur in the rows (the first way when
    none does, or when the rows' words are unknown)."""
    chosen = next((way for way in ways if all(vocabulary.token_rows(w) for w in re.findall(
        r"[A-Za-z]{3,}", re.sub(r"\\[a-zA-Z]|\([^)]*\)|\[[^\]]*\]", " ", way)))), ways[0])
    return chosen, bool(re.search(r"[\\|()\[?]", chosen))


def _logged(pair: str, vocabulary: Vocabulary) -> bool:
    """Whether two words of a question, a word the question may ask with ("broken", "generating") and one it does
    not, are written so in the sampled lines ("Connection broken", "generating core"): one search, the verb kept."""
    words = [w.lower() for w in pair.split()]
    verbs = [w in FILLER and re.fullmatch(r"\w{3,}(?:ing|ed|en)", w) is not None for w in words]
    return sum(verbs) == 1 and not any(w in FILLER for w, verb in zip(words, verbs) if not verb) and (
        vocabulary.together([re.escape(pair)])[0] > 0)
