"""What a ranking or a distinct count is about when no entity word names it: a column of the rows ("alert label"
-> `label`), or values the messages write after the noun (`TID 3`, `HRESULT = 0x80004005`, `package: KB123`,
`error state 6`) or as tokens starting with it (`attempt_1445_0001`). Patterns are derived from the sampled rows,
so a noun the rows never write that way is not claimed."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from react_engine.lexicon.entity_words import COMMON_COLUMNS, CORE_COLUMNS, CUSTOM_ENTITIES, TARGETS
from react_engine.lexicon.known_words import NEVER_FIELDS, NOT_FIELDS
from react_engine.lexicon.number_words import NUMBER_WORDS
from react_engine.lexicon.rank_words import IN_TIME_ORDER, POPULAR, RANKING_SUPERLATIVES
from react_engine.lexicon.severity_terms import SEVERITY_WORDS
from react_engine.lexicon.statistic_words import LINE_MEASURES
from react_engine.lexicon.stop_words import PHRASE_ENDS, VALUE_QUALIFIERS
from react_engine.question import Vocabulary
from react_engine.question.reading.question import Question
from react_engine.question.vocabulary import singular

# after these words comes the thing counted, ranked or listed in time order: "which HRESULT code", "how many
# distinct TIDs", "the first src"
_LEAD = (r"\b(?:(?:which|what|" + IN_TIME_ORDER + r")(?:\s+(?:\d+|" + "|".join(NUMBER_WORDS) + r"))?"
         r"|unique|distinct|different|individual"
         r"|top(?:[\s-]+\d+)?|(?:most|least)\s+(?:" + "|".join(POPULAR) + ")|" + "|".join(RANKING_SUPERLATIVES)
         + r")\s+")
_IN_TIME_ORDER = re.compile(IN_TIME_ORDER, re.I)  # a lead naming one word's value in time order
# a question asking when lines were (at what time), or how long apart: the words after "first"/"last" name lines, not a
# field's value
_ASKS_TIME = re.compile(r"^\W*(?:when|how long|(?:at\s+)?what\s+time)\b|\bhow much time\b|\btime between\b", re.I)
_WORDS = re.compile(_LEAD + r"(?=((?:[A-Za-z][\w-]*\s+){0,3}[A-Za-z][\w-]*))", re.I)  # a lookahead: a phrase may hold a lead
# "what is the first X": a value asked
_FIRST_VALUE = re.compile(r"^\W*what(?:'s|\s+(?:is|was|are|were))\s+the\s+(?:first|last|earliest|latest)\b", re.I)
# after "the first/last N X", the words that make X a field of some lines ("the first src when receiving block"):
# without them the phrase names the lines themselves ("the first 3 POSTs", "the last five VM Paused events"), which a
# pattern field named by a word of those lines (`"POST <*>`, `VM <*>`) must not take for its values
_QUALIFIED = re.compile(r"\b(?:when|while|whenever|where|of|for|from|by|during|after|before)\b", re.I)
# a value written after its name: contains a digit, ends with a letter or digit
_VALUE = r"([^\s,;()\[\]]*?\d(?:[^\s,;()\[\]]*\w)?)"


# a value of any letters written in a `key=value` or `key: value` pair (`mask=ffffffff`, `progress = NULL`,
# `reqpath:n/a`, `Name: OneStats`): the pair marks it a value, where a word after a name and a space may be any word
_WORD_VALUE = r"([^\s,;()\[\]{}<>=:'\"]+)"
# an IPv4 address written with its port (`src: /10.250.19.102:54106`): the address is the value, the port another;
# not the head of a longer value (`hdfs://10.10.34.11:9000/pjhe/test`: that value is the whole path)
_ADDRESS = r"(\d{1,3}(?:\.\d{1,3}){3}):\d+(?:$|[^\w.:/])"
_PORT_OF = r"\d{1,3}(?:\.\d{1,3}){3}:(\d+)(?:$|[^\w.:])"  # the port of an address written with it: "dest port"


@dataclass(frozen=True)
class Subject:
    """A column, or an extraction pattern (its group is the value), and how the answer names its values."""

    name: str  # the column, or the name the extracted values are kept under
    label: str  # plural, as the question wrote it ("HRESULT codes")
    patterns: tuple[str, ...] = ()  # extraction patterns the sampled messages match, best first; () for a column

    def pattern(self, searches: list[str], vocabulary: Vocabulary) -> str | None:
        """The first of `patterns` that matches sampled lines matching every one of `searches` (regexes)."""
        return next((p for p in self.patterns if vocabulary.together([*searches, _plain(p)])[0]), None)


def _plain(pattern: str) -> str:
    """An RE2 extraction pattern as a Python one (the sample is matched ignoring case)."""
    return pattern.removeprefix("(?i)")


# "what is the src of ...", "what was the TID for ...": the value of a field is asked
VALUE_OF = re.compile(r"^\W*what(?:\s+(?:is|was|are|were)|'s)\s+the\s+([A-Za-z][\w-]*)\s+(?:of|for)\b", re.I)


def asked_field(text: str) -> re.Match[str] | None:
    """The field a "what is the X of ..." question asks the value of, when X is no word the rules read otherwise
    (a measure, "number", "total", an entity word)."""
    m = VALUE_OF.search(text)
    if m is None or m.group(1).lower() in NOT_FIELDS or any(
            re.fullmatch(p, m.group(1), re.I) for _, p in TARGETS):
        return None
    return m


def subject(q: Question, columns: list[str], vocabulary: Vocabulary) -> Subject | None:
    """The column or message values the words after "which"/"unique"/"top" (or one word after "first"/"last")
    name, or whose value "what is the X of" asks, when no rule knows those words and the rows hold them (the words become consumed); else None."""
    if (found := _value_asked(q, columns, vocabulary)) is not None:
        return found
    for m in _WORDS.finditer(q.text):
        words = _noun_phrase(m.group(1), vocabulary, _FIRST_VALUE.match(q.text) is not None)
        if not words or (_IN_TIME_ORDER.match(m.group(0)) and _ASKS_TIME.search(q.text)):
            continue  # "when was the last remove" asks a time, not a field's value
        end = m.start(1) + _span(m.group(1), len(words))
        if any(q.used[m.start(1):end]):
            continue
        # "the first POST requests" are lines; "the first src", "the last 3 dest ports" a field's values
        in_order = bool(_IN_TIME_ORDER.match(m.group(0)))
        found = field_subject(words, columns, vocabulary, whole=len(words) > 1 and in_order,
                              catalogued=not in_order or _QUALIFIED.search(q.text, end) is not None)
        if found is not None:
            q.consume(m.start(1), end)
            return found
    return _counted_column(q, columns)


def field_subject(words: list[str], columns: list[str], vocabulary: Vocabulary, whole: bool = False,
                  catalogued: bool = True) -> Subject | None:
    """The column the words name, else the values the sampled messages write after them (see `_in_messages`),
    else (when `catalogued`) the field of the messages' patterns they name (see `logs.field_catalog`); None when none
    is. With `whole`, only the whole phrase may name them, never its head noun alone."""
    return _column(words, columns, whole) or _in_messages(words, vocabulary, whole=whole) or (
        _catalogued(words, vocabulary, whole) if catalogued else None)


def _catalogued(words: list[str], vocabulary: Vocabulary, whole: bool) -> Subject | None:
    """The pattern field the phrase (or, unless `whole`, its head noun) names, read by the tools by its name."""
    if not vocabulary.sample:
        return None
    nouns = _nouns(words)
    for key in list(dict.fromkeys([" ".join(w.lower() for w in words), " ".join(nouns),
                                   *([] if whole else [nouns[-1]])])):
        held = vocabulary.catalog.held(key)
        if held:
            return Subject(held[0][1].name, _label(words))
    return None


# the value a "what is the X of" question names: the token after "of" ("of 240Distance that ...")
_VALUE_NAMED = re.compile(r"\s+(\S+)")


def _value_asked(q: Question, columns: list[str], vocabulary: Vocabulary) -> Subject | None:
    """The column or message values whose value "what is the X of V" asks: X named as no rule reads it, else a word
    the rules read otherwise that the log writes as a field of V's lines (`_written_field`); its word consumed."""
    found: Subject | None = None
    if (m := asked_field(q.text)) is not None:
        found = _column([m.group(1)], columns) or _apart(
            _in_messages([m.group(1)], vocabulary), _VALUE_NAMED.match(q.text, m.end()), vocabulary)
    elif (m := _written_field(q.text)) is not None:
        found = _apart(_in_messages([m.group(1)], vocabulary, strict=True), _VALUE_NAMED.match(q.text, m.end()),
                       vocabulary, strict=True)
    if m is None or found is None:
        return None
    q.consume(m.start(1), m.end(1))
    return found


def _written_field(text: str) -> re.Match[str] | None:
    """"What is the client of 52117": a word the rules read otherwise (an entity, filler or asking word, not a
    measure) that asks the value of a field when the value it names holds a digit; the log must write the word as
    a field of that value's lines (`_in_messages` and `_apart`, strict)."""
    m = VALUE_OF.search(text)
    named = _VALUE_NAMED.match(text, m.end()) if m is not None else None
    if m is None or named is None or asked_field(text) is not None or not re.search(r"\d", named.group(1)):
        return None
    return None if m.group(1).lower() in NEVER_FIELDS else m


def _apart(found: Subject | None, named: re.Match[str] | None, vocabulary: Vocabulary,
           strict: bool = False) -> Subject | None:
    """`found` with only the patterns whose value, on the sampled lines writing the `named` value, is not that
    value or a part of it (`totalSteps=7163Calories:240Distance` holds "240Distance": where one value ends is not
    known, so the field is not read), and when `strict` that some of those lines write, an address first (the value
    of `client /10.0.0.7:4001` is its address, its port another); None when no pattern is left."""
    if found is None or named is None:
        return found
    value = named.group(1).rstrip("?.,;")
    part = re.compile(rf"(?<![^\W_]){re.escape(value)}(?![^\W_])", re.I)
    lines = [m for m in vocabulary.events.messages if value.lower() in m.lower()]
    kept = sorted((p for p in found.patterns if _apart_on(p, part, lines, strict)), key=lambda p: _ADDRESS not in p)
    return Subject(found.name, found.label, tuple(kept)) if kept else None


def _apart_on(pattern: str, part: re.Pattern[str], lines: list[str], strict: bool) -> bool:
    """Whether the value `pattern` reads on `lines` never holds `part`, and when `strict` some of them hold one."""
    values = [v.group(1) for line in lines if (v := re.search(_plain(pattern), line, re.I)) is not None]
    return not any(part.search(v) for v in values) and (bool(values) or not strict)


def _counted_column(q: Question, columns: list[str]) -> Subject | None:
    """"How many packages were removed": a column of the format's own (dpkg's `package`) that "how many" counts;
    the words become consumed. Only a column, never a word of the messages."""
    for m in re.finditer(r"\bhow many\s+([A-Za-z][\w-]*)\b", q.text, re.I):
        if q.used[m.start(1)] or not (words := _noun_phrase(m.group(1), None)):
            continue
        if (found := _column(words, [c for c in columns if c not in COMMON_COLUMNS])) is not None:
            q.consume(m.start(1), m.end(1))
            return found
    return None


def _span(text: str, n: int) -> int:
    """Where the first `n` words of `text` end."""
    return list(re.finditer(r"\S+", text))[n - 1].end()


def _noun_phrase(text: str, vocabulary: Vocabulary | None, valued: bool = False) -> list[str]:
    """The words up to the verb ("HRESULT code shows up" -> HRESULT code), or [] when the head is a word the rules
    already understand (an entity, a severity, a filler word; `valued`: a value is asked, "what is the last X", so
    a severity word of a log that records no levels may name a field)."""
    words = list(itertools.takewhile(lambda w: not _ends_phrase(w.lower()), text.split()))
    head = next((w for w in reversed(words) if w.lower() not in VALUE_QUALIFIERS), None)
    return words if head is not None and not _understood(head, words, vocabulary, valued) else []


def _ends_phrase(lower: str) -> bool:
    """Whether a word ends a noun phrase: a verb or a word around one, or any word ending in -ed."""
    return lower in PHRASE_ENDS or (lower.endswith("ed") and len(lower) > 4)


def _understood(head: str, words: list[str], vocabulary: Vocabulary | None, valued: bool = False) -> bool:
    """Whether the rules understand the phrase already: its head asks for a measure or is a severity (but for a
    value asked of a log that records no levels: "what is the last error" of `failed with error 10061`), or the
    phrase holds an entity word (of a kind the sampled lines write, when `vocabulary` is given: "dest ports" of
    HDFS, which writes no `port 22`, is a field of its own)."""
    phrase = " ".join(words)
    leveled = not valued or vocabulary is None or bool(vocabulary.values.get("level_raw"))
    return head.lower() in LINE_MEASURES or (leveled and any(re.fullmatch(p, head, re.I) for p, _ in SEVERITY_WORDS)) or any(
        re.search(p, phrase, re.I) and (vocabulary is None or writes_kind(kind, vocabulary)) for kind, p in TARGETS)


def writes_kind(kind: str, vocabulary: Vocabulary) -> bool:
    """Whether the sampled lines write values of the entity `kind`: those of a kind found by a pattern of its own
    (CUSTOM_ENTITIES: `port 22`, `blk_1`) only when the pattern matches one (any kind when there is no sample)."""
    return kind not in CUSTOM_ENTITIES or not vocabulary.sample or bool(vocabulary.together([CUSTOM_ENTITIES[kind]])[0])


def _nouns(words: list[str]) -> list[str]:
    """The words without trailing qualifiers, in the singular and lower case."""
    while len(words) > 1 and words[-1].lower() in VALUE_QUALIFIERS:
        words = words[:-1]
    return [singular(w.lower()) for w in words]


def _label(words: list[str]) -> str:
    text = " ".join(words)
    return text if text.lower().endswith("s") else text + "s"


def _column(words: list[str], columns: list[str], whole: bool = False) -> Subject | None:
    """A column named by the phrase ("log ids" -> `log_id`) or, unless `whole`, by its head noun ("alert label" ->
    `label`)."""
    nouns = _nouns(words)
    folded = {c.lower(): c for c in columns if c.lower() not in CORE_COLUMNS}
    for key in ("_".join(nouns),) if whole else ("_".join(nouns), nouns[-1]):
        if key in folded:
            return Subject(folded[key], _label(words))
    return None


def _in_messages(words: list[str], vocabulary: Vocabulary, strict: bool = False, whole: bool = False
                 ) -> Subject | None:
    """A pattern for the values the sampled messages write after the phrase or (unless `whole`) its head noun, or
    as tokens that start with it: whichever matches more sampled lines (when `strict`, only an address or a value
    with a digit written after the word)."""
    if not vocabulary.sample:
        return None
    nouns = _nouns(words)
    found: list[str] = []
    keys = [" ".join(nouns), *([] if whole else [nouns[-1]]), " ".join(w.lower() for w in words)]
    for key in list(dict.fromkeys(keys)):
        written = r"\s+".join(re.escape(k) for k in key.split())
        # `src: /10.0.0.1:50010`: an address after a key's colon has no slash, a path after a space; `hdfs://host/x`:
        # nor has a value right after a key's colon, but `file: /var/lib/x` is a path
        after = rf"(?i)\b{written}(?:[ \t]*[=:#][ \t]*/{{0,2}}|[\[(]|[ \t]+)"
        address = after + "/{0,2}" + _ADDRESS
        value = rf"(?i)\b{written}(?:[ \t]*[=:#](?://)?[ \t]*|[\[(]|[ \t]+)" + _VALUE
        candidates = [address, value] if strict else [
            rf"(?i)\b({written}_[\w-]*\w)", address, value,
            rf"(?i)\b{written}(?:[ \t]*=[ \t]*|:[ \t]?)/{{0,2}}" + _WORD_VALUE]
        if len(key.split()) > 1 and key.split()[-1] == "port":  # "dest port": of `dest: /10.0.0.1:50010`
            owner = r"\s+".join(re.escape(k) for k in key.split()[:-1])
            candidates.insert(0, rf"(?i)\b{owner}(?:[ \t]*[=:#][ \t]*|[ \t]+)/{{0,2}}" + _PORT_OF)
        lines = {c: vocabulary.together([_plain(c)])[0] for c in candidates}
        found += sorted((c for c in candidates if lines[c]), key=lambda c: -lines[c])
    return Subject("_".join(nouns), _label(words), tuple(found)) if found else None
