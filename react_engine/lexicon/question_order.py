"""Words that put a question's parts in another order than the readers read them ("When failed password, which user
has the most?", "For 10.0.0.1, how many ...?", "Give me the port of admin ...", "the first port seen when ...")."""

from __future__ import annotations

VALUE_REQUESTS = ("give me", "tell me", "get me")
"""Words that ask for one value as "what is" does ("give me the port of admin that failed password")."""

CONDITION_LEADS = ("when", "whenever", "while")
"""Words that lead a condition on the lines ("when failed password"), put before the question or after it."""

VALUE_LEADS = ("for", "from")
"""Prepositions that lead a value put before the question ("For 10.0.0.1, how many failed password?")."""

POINTING_WORDS = ("the", "this", "that", "these", "those", "my", "our", "your", "a", "an", "all", "each", "every")
"""Words after a leading preposition that point at the logs or at lines ("For this log, how many ..."), never at a
value the question is asked for."""

QUESTION_STARTS = ("how", "what", "what's", "whats", "which", "who", "count", "list", "is", "are", "was", "were", "did",
                   "does", "do", "number", "show")
"""Words a question proper starts with, after a leading condition or value and its comma."""

LOGGING_PARTICIPLES = ("seen", "logged", "recorded", "written", "reported", "observed", "printed")
"""Participles after a field that say no more than that a line wrote its value ("the first port seen when ...")."""

FIELD_CONDITIONS = ("where", "whose")
"""Words that lead a field's value the lines must hold, written as a clause ("where port is 22")."""

EQUALS_VERBS = ("is", "was", "equals")
"""Verbs between a field and its value in such a clause ("where user is root"), read as "with user root"."""

HAVING_VERBS = ("have", "has", "use", "get", "show")
"""Verbs of "which port did 10.0.0.1 have when ...": the value of a field a value's lines hold, as "what is the port
of 10.0.0.1" asks it."""
