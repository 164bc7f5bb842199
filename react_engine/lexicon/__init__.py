"""The words questions, logs and answers use, one typed list per kind, each with what it means; every reader,
compile step, tool, log reader and answer check that needs words takes them from here (tests/test_lexicon.py keeps
it so). The lexicon is the lowest stage: it imports nothing else of the package.

- `number_words`: numbers written as words;
- `time_units`: time units and their spellings, time buckets and their adverbs ("hourly"), days and months;
- `rank_words`: superlatives and the way a ranking runs ("most", "fewest", "busiest");
- `statistic_words`: statistics, quantities and percentages as questions name them;
- `severity_terms`: severity words and how logs write them;
- `entity_words`: what can be counted or ranked (entities, columns) and how answers name it;
- `event_phrases`: key phrases and common events as users say them and as logs write them;
- `stop_words`: filler and function words, which link to nothing in a log;
- `known_words`: every word above, which a misspelling is corrected to and never from.
"""
