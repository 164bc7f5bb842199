"""Reading a question into a typed `Query`, one module per kind of words read.

`read.read_question` runs the readers in order over a `draft.Draft` and returns a `result.Reading`: the query (or
the problem that stops it), the interpretation, and what tells an honest zero from words that never meet. The words
the readers understand are the lexicon's (`react_engine.lexicon`).

- `question`: the question's text with the spans already read, time windows, names that occur in the data;
- `literals`, `places`, `texts`, `phrases`, `severity`: quoted text and addresses, hosts and components,
  statuses, methods, key phrases and levels, as filters;
- `shape`, `keys`, `measure`: what is done with the lines (count, rank, list...), the values counted, the query;
- `negation`, `negated`: the words a question negates and the values it leaves out, as filters that exclude;
- `grounding`, `events`: the words left over, searched or ignored; a question read as one of the log's events;
- `nouns`, `roles`, `sources`: what is counted, which address of a line is meant, a source the question names;
- `investigation`, `sessions`: patterns, what is unusual, timelines; durations between paired lines.
"""
