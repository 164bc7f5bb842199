"""Reading a question into a typed `Query`, one module per kind of words read.

- `question`: the question's text with the spans already read, time windows, names that occur in the data;
- `lexicon`: the words understood (entities, severities, phrases, events, HTTP statuses and methods);
- `nouns`, `roles`, `sources`: what is counted, which address of a line is meant, a source the question names;
- `negation`, `exclusions`: the words a question leaves out;
- `events`: reading a question as one of the log's own events;
- `investigation`, `sessions`: patterns, what is unusual, timelines; durations between paired lines.
"""
