"""The words no other reader explained: a word of the messages (in any form: `expired` finds `Expiring`) becomes a
search, a word found nowhere is ignored and reported, a word of a lead-in or of the log's name is framing; and
whether the searches for the question's own words describe one kind of line."""

from __future__ import annotations

import re
from collections.abc import Iterator

from react_engine.question.interpretation import Term
from react_engine.question.query import TextFilter
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.event_words import quote_covers
from react_engine.question.reading.literals import note_unwritten
from react_engine.question.reading.places import continues_name
from react_engine.question.reading.question import Question, lead_in, logs_itself
from react_engine.question.reading.shape import LINE_WORDS
from react_engine.question.vocabulary import Vocabulary, singular, stem
from react_engine.tools.regex import literal


def ground(q: Question, draft: Draft, vocabulary: Vocabulary, quoted: list[str]) -> list[str]:
    """Read the words no rule explained (see the module); a word the `quoted` text covers or never meets is no
    search. Returns the words that cannot be handled: bare numbers, and without a vocabulary every word."""
    if not vocabulary.sampled:
        return [m.group(0) for m in q.leftover()]
    start, unknown = lead_in(q.text), []
    for m in q.leftover():
        word = m.group(0).strip("'.:-")
        if m.start() < start or vocabulary.names_log(word) or logs_itself(q, m):
            draft.framing.append(word)
        elif not continues_name(q, m, draft):
            unknown += _ground_word(q, m, word, draft, (vocabulary, quoted))
        q.consume(m.start(), m.end())
    return unknown


def _ground_word(q: Question, m: re.Match[str], word: str, draft: Draft, where: tuple[Vocabulary, list[str]]
                 ) -> list[str]:
    """Read a word of the question proper (`where`: the vocabulary and the quoted text): `[word]` when it cannot
    be handled, else [] (searched, or ignored)."""
    vocabulary, quoted = where
    if quoted and (covered := quote_covers(word, quoted, vocabulary)) is not None:
        if not covered:
            draft.ignored.append(word)  # it describes the quoted lines ("the 'ERROR IN CONTACTING RM' lines")
        return []
    if _searched(q, m, word, draft, vocabulary):
        return []
    if _names_lines(q, m, word):
        return [word]
    draft.ignored.append(word)
    return []


def _searched(q: Question, m: re.Match[str], word: str, draft: Draft, vocabulary: Vocabulary) -> bool:
    """Search for `word` when the rows hold it (or it is written like an id or a path, or counted as "how many
    X"); False for a word to leave out or that cannot be handled."""
    if word.isdigit():
        return _number_value(word, draft, vocabulary)  # a value of the log (a port, a pid, an id), else unnamed
    if re.search(r"[\d._/:-]", word):
        draft.search(word, False, f'containing "{word}"')
        draft.terms.append(Term(word=word, column="message", value=word))
        note_unwritten(word, draft, vocabulary)
    elif vocabulary.stem_rows(word) or vocabulary.token_rows(word):
        _search_form(word, draft, vocabulary)
    elif re.search(r"\b(?:how many|number of|count of)\s+$", q.text[:m.start()], re.I) and \
            word not in {c.read_as for c in draft.corrections}:  # a zero for a guessed word is no answer
        root = stem(word.lower())
        draft.search(rf"\b{literal(root)}", True, f'with a word starting "{root}"')
        draft.grounding.absent.append(rf"\b{literal(root)}")
        draft.never.append(root)
        draft.terms.append(Term(word=word, column="message", value=root, rows=0))
    else:
        return False
    return True


def number_pattern(number: str) -> str:
    """An RE2 pattern for `number` written as a value of its own: not a part of a longer number, a word, an IP
    address or a decimal ("50010" in `10.251.73.220:50010` and `port 50010`, not in `150010` or `1.50010`)."""
    return rf"(?:^|[^\w.]){re.escape(number)}(?:$|[^\w.]|\.(?:$|[^0-9]))"


def _number_value(number: str, draft: Draft, vocabulary: Vocabulary) -> bool:
    """Search the messages for a bare number as a value when the sampled messages write it as one (the head's time
    and pid are no such value: "29" is not in `12:10:29`); whether they do."""
    pattern = number_pattern(number)
    rows = int(vocabulary.events.lines(pattern).sum()) if vocabulary.sampled else 0
    if not rows:
        return False
    draft.search(pattern, True, f"with the value {number}", message=True)
    draft.terms.append(Term(word=number, column="message", value=number,
                            rows=rows if vocabulary.sampled == vocabulary.rows else None))
    return True


def _search_form(word: str, draft: Draft, vocabulary: Vocabulary) -> None:
    """Search for the form of `word` the rows write (its stem when they write none, or when `word` names an event
    the rows write mostly as a verb: "synchronizations" for `synchronized`), once."""
    root = next((w for w in (word.lower(), singular(word.lower())) if vocabulary.tokens.get(w)),
                stem(word.lower()))
    if re.search(r"(?:ations?|ions?)$", word, re.I) and vocabulary.token_rows(root) * 10 < vocabulary.stem_rows(word):
        root = stem(word.lower())
    if not draft.search(rf"\b{literal(root)}", True, f'with a word starting "{root}"'):
        return  # the same word again
    grounding = draft.grounding
    grounding.guesses.append(rf"\b{re.escape(root)}")
    grounding.stems.append((len(draft.filters) - 1, len(grounding.guesses) - 1, root, stem(word.lower())))
    exact = vocabulary.sampled == vocabulary.rows
    draft.terms.append(Term(word=word, column="message", value=root,
                            rows=vocabulary.stem_rows(word) if exact else None))


def _names_lines(q: Question, m: re.Match[str], word: str) -> bool:
    """Whether an unknown word says which lines are meant, so it cannot be left out: a bare number, "eror lines",
    "blocks were allocated"."""
    return word.isdigit() or re.match(r"\s+" + LINE_WORDS + r"\b", q.text[m.end():], re.I) is not None or (
        re.fullmatch(r"\w{3,}[^e]ed", word) is not None
        and re.search(r"\b(?:were|was|been|got|are|is|be|being)\s+$", q.text[:m.start()], re.I) is not None)


def apart(draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether the searches for the question's own words do not describe one kind of line: in the sampled
    messages they never match together, even with each word in any form ("renewal" as "renew..."), or together
    on under 5% of the lines the rarest of them matches (events and names the rows contain included). Words that
    never match together as written are searched in any form when that finds lines."""
    grounding = draft.grounding
    both, fewest = vocabulary.together(grounding.guesses + grounding.named)
    if both == 0 and fewest > 0 and grounding.stems:
        guesses = list(grounding.guesses)
        for _, guess, _, root in grounding.stems:
            guesses[guess] = rf"\b{re.escape(root)}"
        both, fewest = vocabulary.together(guesses + grounding.named)
        if both:
            grounding.guesses = guesses
            for index, _, _, root in grounding.stems:
                draft.filters[index] = TextFilter(value=rf"\b{literal(root)}", regex=True,
                                                  words=f'with a word starting "{root}"')
    return (both == 0 and fewest > 0) or (fewest >= 20 and both < 0.05 * fewest)


_WORDS = re.compile(r"[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)*")


def written_phrase(q: Question, draft: Draft, vocabulary: Vocabulary) -> None:
    """Words the question writes as the log writes them, around a word searched for ("stored as values in memory",
    "no server"): that phrase is searched in place of its searched words when the sampled lines hold it and it
    keeps fewer of them than those words do (the words between, read as filler or as other words, tell the lines
    apart, or the log writes the words searched elsewhere than side by side: "usb hid" is no "usbcore ...
    hiddev"), and holds no asking words. The longest such phrase, once."""
    guesses = _guessed(draft)
    if not guesses or not vocabulary.sampled:
        return
    for start, end in _phrases(_runs(q.text)):
        if any(a < end and start < b for a, b in draft.asked.spans):
            continue  # a field or statistic the question asks for ("total bytes received") is no search
        if _narrows(q.text[start:end], guesses, draft, vocabulary):
            return


def _guessed(draft: Draft) -> list[tuple[int, TextFilter]]:
    """The searches for the question's own words, with where each is among the filters."""
    return [(i, f) for i, f in enumerate(draft.filters) if isinstance(f, TextFilter) and f.regex
            and rf"\b{re.escape(f.value[2:])}" in draft.grounding.guesses]


def _phrases(runs: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The spans of every phrase of two to six words of `runs`, the longest first."""
    for n in range(min(6, len(runs)), 1, -1):
        for i in range(len(runs) - n + 1):
            yield runs[i][0], runs[i + n - 1][1]


def _runs(text: str) -> list[tuple[int, int]]:
    """The spans of the words past the lead-in, in order; a phrase is the text between two of them with nothing but
    words and single spaces in between."""
    spans = [m for m in _WORDS.finditer(text) if m.start() >= lead_in(text)]
    return [(s.start() + w.start(), s.start() + w.end()) for s in spans for w in re.finditer(r"\S+", s.group(0))]


def _held(phrase: str, guesses: list[tuple[int, TextFilter]]) -> list[tuple[int, TextFilter]]:
    """The searched words `phrase` holds, when it holds one and another word, or two searched words (and only
    words); else []."""
    words = phrase.lower().split()
    held = [(i, f) for i, f in guesses if any(w.startswith(f.value[2:].replace("\\", "")) for w in words)]
    return held if len(held) > (len(words) == len(held)) and re.fullmatch(r"[\w -]+", phrase) else []


def _narrows(phrase: str, guesses: list[tuple[int, TextFilter]], draft: Draft, vocabulary: Vocabulary) -> bool:
    """Search `phrase` in place of the searched words it holds, when it holds one and another word, and keeps other
    sampled lines than they do (fewer, or more when its first word ends a name: "scheduler_evaluate_activity told"),
    or a word it holds also finds a name the sampled messages do not show; whether it did."""
    held = _held(phrase, guesses)
    if not held:
        return False
    rest = [g for g in draft.grounding.guesses if g not in {rf"\b{re.escape(f.value[2:])}" for _, f in held}]
    # words all searched are one phrase however the log joins them ("not responding", "not-responding"), the first
    # maybe the end of a name ("scheduler_evaluate_activity told")
    written = r"(?:\b|_)" + r"[\s-]+".join(map(re.escape, phrase.split())) if len(held) == len(phrase.split()) \
        else None
    now = vocabulary.together(draft.grounding.guesses)[0]
    found = vocabulary.together([written or re.escape(phrase), *rest])[0]
    if not found or (found == now and not any(vocabulary.in_names(f.value) for _, f in held)):
        return False  # a word searched that names a component ("networkd") keeps lines the phrase does not
    for i, _ in sorted(held, reverse=True):
        del draft.filters[i]
    draft.filters.append(TextFilter(value=written or phrase, regex=written is not None, words=f'containing "{phrase}"'))
    draft.grounding.guesses = [*rest, written or re.escape(phrase)]
    draft.grounding.stems = []
    return True
