"""The values a question counts or ranks (a `Key`): a column, an entity type the tools extract, a noun the
messages write with values, or the address or port of one role ("source IPs")."""

from __future__ import annotations

from react_engine.lexicon.entity_words import CUSTOM_ENTITIES, ENTITY_ROLES, ENTITY_TYPES, LABELS
from react_engine.lexicon.event_phrases import REQUEST_METHOD
from react_engine.question.measures import Key
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.nouns import Subject
from react_engine.question.reading.roles import VALUES, done_by, done_to, marked, several_ips
from react_engine.question.vocabulary import Vocabulary


def key_of(draft: Draft, columns: list[str], vocabulary: Vocabulary) -> Key | None:
    """The values the question counts or ranks (None with the problem set when the rows hold none)."""
    subject = draft.subject
    found = _after_verb(draft, vocabulary) or (
        _subject_key(subject, draft, vocabulary) if subject else _entity_key(draft, columns, vocabulary))
    if found is None:
        return None
    kind, label, pattern = found
    if draft.wrote and kind not in columns:  # values read from the messages, which no line names as its writer
        draft.unread.append(draft.wrote)
    if kind not in columns and kind not in ENTITY_TYPES and pattern is None and kind != "http_status" and not (
            subject and vocabulary.catalog.held(kind)):  # a field of the messages' patterns, read by its name
        draft.problem = f"these logs have no {label}"
        return None
    return Key(name=kind, label=label, pattern=pattern,
               extract=pattern is None and kind in ENTITY_TYPES and draft.goal in ("unique", "list"))


def _after_verb(draft: Draft, vocabulary: Vocabulary) -> tuple[str, str, str | None] | None:
    """The values written after the verb and preposition a question ends with ("which server did ntpd synchronize
    to": `synchronized to 10.100.20.250`), when most matching lines write them; else None, and when a preposition
    is left at the end its words are unread (the values ranked are not shown to be what they relate to)."""
    if draft.stranded is None or (name := draft.subject.name if draft.subject else draft.target) is None:
        return None
    verb, preposition = draft.stranded
    label = draft.subject.label if draft.subject else LABELS.get(name, name)
    if (pattern := done_to(verb, preposition, draft.searches(), vocabulary)) is None:
        draft.unread.append(f"{verb} {preposition}")
        return None
    return f"{name}_{preposition}", label, pattern


def _subject_key(subject: Subject, draft: Draft, vocabulary: Vocabulary) -> tuple[str, str, str | None] | None:
    """A noun the question names: its column, or the pattern that finds its values in the matching lines."""
    if not subject.patterns:
        return subject.name, subject.label, None
    pattern = subject.pattern(draft.searches(), vocabulary)
    if pattern is None:
        draft.problem = f"I found no {subject.label} written in the lines that match the question's other words"
        return None
    return subject.name, subject.label, pattern


def _entity_key(draft: Draft, columns: list[str], vocabulary: Vocabulary) -> tuple[str, str, str | None] | None:
    """An entity word's values, of the role the question names when the lines mark it."""
    kind, label = _entity(draft.target or "", columns, vocabulary), LABELS[draft.target or ""]
    if (user := _user_role(kind, draft, columns)) is not None:
        return user, LABELS[user], None
    mark = marked(kind, draft.role, draft.searches(), vocabulary) if draft.role and kind in VALUES else None
    if mark is not None:
        draft.subject = Subject(f"{draft.role}_{kind}", f"{draft.role} {label}", (mark,))
        return draft.subject.name, draft.subject.label, mark
    if kind == "ip" and draft.deed and (mark := done_by(draft.deed, draft.searches(), vocabulary)) is not None:
        draft.subject = Subject("ip", f"{label} that {draft.deed}", (mark,))
        return draft.subject.name, draft.subject.label, mark
    if kind == "ip" and _several_ips(draft, vocabulary):
        draft.problem = ("the lines hold several IP addresses and do not mark which one is meant; ask for the "
                         "source, destination or client addresses")
        return None
    if kind == "method" and kind not in columns:  # "which methods": as the request lines write them
        return _request_methods(draft, label, vocabulary)
    return kind, label, CUSTOM_ENTITIES.get(kind)


def _user_role(kind: str, draft: Draft, columns: list[str]) -> str | None:
    """The entity type of the users' role the question names (who ran a command, or whom it ran as), for users
    the lines write (a log with a user column holds them in one role), else None."""
    return draft.role if kind == "user" and kind not in columns and draft.role in ENTITY_ROLES[kind] else None


def _several_ips(draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether the sampled lines the draft keeps hold several IP addresses (see `several_ips`)."""
    return bool(vocabulary.sample) and several_ips(draft.searches(), vocabulary, bool(draft.role or draft.deed))


def _request_methods(draft: Draft, label: str, vocabulary: Vocabulary) -> tuple[str, str, str | None] | None:
    """The HTTP methods as the request lines write them; None (the problem set) when no sampled line writes one."""
    if vocabulary.sample and not vocabulary.together([REQUEST_METHOD])[0]:
        draft.problem = f"these logs have no {label}"
        return None
    return "method", label, REQUEST_METHOD


def _entity(target: str, columns: list[str], vocabulary: Vocabulary) -> str:
    """The entity type or column name the tools know for `target`."""
    if target == "modem":
        return "cm_mac" if "cm_mac" in columns else "mac"
    if target == "status":
        return "status" if "status" in columns else "http_status"
    if target == "remote_host" and not vocabulary.token_rows("rhost"):
        return "ip"
    if target == "thread" and "thread" not in columns and "tid" in columns:
        return "tid"
    return target
