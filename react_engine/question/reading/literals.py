"""Text written as the logs write it: quoted phrases, MAC and IP addresses, interfaces and paths."""

from __future__ import annotations

import re

from react_engine.lexicon.entity_words import TARGETS
from react_engine.logs.macs import MAC_SEPARATED, any_notation
from react_engine.logs.macs import normalize as normalize_mac
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.question import Question
from react_engine.question.spelling import correct
from react_engine.question.vocabulary import Vocabulary
from react_engine.tools.regex import literal

# single quotes may hold an apostrophe between letters: 'Can't find child'
_QUOTED = r"\"([^\"]+)\"|“([^”]+)”|`([^`]+)`|(?<!\w)'((?:[^']|(?<=\w)'(?=\w))+)'(?!\w)"


def read_literals(q: Question, draft: Draft, vocabulary: Vocabulary) -> None:
    """Quoted phrases, MAC and IP addresses and interface names written in the question become searches. A quoted
    phrase no sampled line contains is read with its typos corrected against the messages' words, when that
    phrase occurs ("faild to resolve" -> "failed to resolve"); an ellipsis in a phrase stands for any text."""
    for m in q.take(_QUOTED, accept=lambda m: not _names_component(m, q.text, vocabulary)):
        _search_quoted(next(g for g in m.groups() if g), draft, vocabulary)
    for m in q.take(r"(?:\b(?:mac|modem|cm)\s+)?\b(" + MAC_SEPARATED + r")\b"):
        pattern = "(?i)" + any_notation(normalize_mac(m.group(1)) or "")
        draft.search(pattern, True, f"mentioning MAC {m.group(1)} (any notation)")
    for m in q.take(r"(?:\bip(?: address)?\s+)?\b(\d{1,3}(?:\.\d{1,3}){3})\b"):
        draft.search(m.group(1), False, f"mentioning {m.group(1)}")
    for m in q.take(r"\b((?:cable|gi|te)\d+(?:/\d+)+(?::\d+)?)\b|(?<![\w/])(/[\w.~%/-]*[\w~%/-])"):
        text = m.group(1) or m.group(2)
        draft.search(text, False, f"mentioning {text}")
    for m in q.take(_DOTTED, accept=lambda m: _written_whole(m.group(0), vocabulary)):
        draft.search(m.group(0), False, f"mentioning {m.group(0)}")


def _names_component(quoted: re.Match[str], text: str, vocabulary: Vocabulary) -> bool:
    """Whether a quoted phrase is a component's name before the noun of components ("the 'node' component"),
    left to be read as that component rather than searched for."""
    name = next(g for g in quoted.groups() if g)
    return name in vocabulary.values.get("component", {}) and re.match(
        r"\s+(?:" + dict(TARGETS)["component"] + ")", text[quoted.end():], re.I) is not None


# a name written with dots between its parts, one of them of letters (`13.client-channel.google.com`)
_DOTTED = r"(?<![\w.:/-])(?=[\w.-]*[A-Za-z])[\w-]+(?:\.[\w-]+)+(?![\w:/-]|\.\w)"


def _written_whole(name: str, vocabulary: Vocabulary) -> bool:
    """Whether the sampled lines write the dotted `name` whole and it names no host or component (read as one
    elsewhere): the rules' words inside it ("client" in `13.client-channel.google.com`) are its letters, not
    their own."""
    return not vocabulary.holders(name) and vocabulary.together(
        [rf"(?:^|[^\w.-]){re.escape(name)}(?:$|[^\w-]|\.(?!\w))"])[0] > 0


_ANY = r"\[?(?:\.\.\.+|…)\]?|<\*>"  # "Took ... seconds", "lease for [...]", loghub's "<*>": any text
_NUMBER = r"(?<![\w<])(?:N|X|#|<[nN]>|<num(?:ber)?>)(?![\w>])"  # "took N ms": a number's place


def _search_quoted(phrase: str, draft: Draft, vocabulary: Vocabulary) -> None:
    """Search for a quoted phrase, as the lines write it; an ellipsis in it stands for any text, and a number's
    placeholder (N, X, #, <n>) for a number when the lines do not write the phrase as it is."""
    numbered = re.search(_NUMBER, phrase) is not None and not in_sample(phrase, vocabulary)
    parts = [p.strip() for p in re.split(f"({_ANY}|{_NUMBER})" if numbered else f"({_ANY})", phrase)]
    if len(parts) > 1 and any(p and not re.fullmatch(f"{_ANY}|{_NUMBER}", p) for p in parts):
        pattern = r"\s*".join(_part(p) for p in parts if p)
        draft.search(pattern, True, f"matching /{pattern}/")
        return
    phrase = _as_logged(phrase, draft, vocabulary)
    draft.search(phrase, False, f'containing "{phrase}"')


def _part(text: str) -> str:
    """A quoted phrase's part as a pattern: any text, a number, or the text itself."""
    if re.fullmatch(_ANY, text):
        return ".*?"
    return r"-?\d+(?:\.\d+)?" if re.fullmatch(_NUMBER, text) else literal(text)


def _as_logged(phrase: str, draft: Draft, vocabulary: Vocabulary) -> str:
    """`phrase`, or the phrase with its words corrected against the messages' words when only that occurs."""
    if not vocabulary.sample or in_sample(phrase, vocabulary):
        return phrase
    fixed, corrections = correct(phrase, frozenset(vocabulary.tokens), tuple(vocabulary.tokens), quoted=False)
    if corrections and in_sample(fixed, vocabulary):
        draft.corrections += corrections
        return fixed
    return phrase


def in_sample(phrase: str, vocabulary: Vocabulary) -> bool:
    """Whether a sampled line contains `phrase`."""
    return vocabulary.together([re.escape(phrase)])[0] > 0


def note_unwritten(word: str, draft: Draft, vocabulary: Vocabulary) -> None:
    """Note a searched text with no digit that no sampled line writes ("containing i.e"): its zero is no answer (an
    id's is)."""
    if not re.search(r"\d", word) and vocabulary.sampled and not in_sample(word, vocabulary):
        draft.never.append(word)
