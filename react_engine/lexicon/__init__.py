"""The words questions, logs and answers use, one typed list per kind, each with what it means; every reader,
compile step, tool, log reader and answer check that needs words takes them from here (tests/test_lexicon.py keeps
it so). The lexicon is the lowest stage: it imports nothing else of the package.

- `number_words`: numbers written as words;
- `time_units`: time units as questions write them, time buckets and their adverbs ("hourly"), days and months;
- `measure_units`: the units of sizes and durations as log lines and answers write them, with their factors, and the
  words that ask for a size or a duration;
- `rank_words`: superlatives and the way a ranking runs ("most", "fewest", "busiest");
- `statistic_words`: statistics, quantities and percentages as questions name them;
- `severity_terms`: severity words as questions say them;
- `level_spellings`: severity levels as logs write them (`ERR`, `W`, `notc`);
- `entity_words`: what can be counted or ranked (entities, columns) and how answers name it;
- `event_phrases`: key phrases and common events as users say them and as logs write them;
- `question_order`: the words of a question written in another order than the readers read it ("When X, which
  ...", "For X, how many ...", "give me the ...");
- `stop_words`: filler and function words, which link to nothing in a log, for questions, log fields and values;
- `word_endings`: the plural endings and suffixes matching word forms strips;
- `known_words`: every word a question is read with, which a misspelling is corrected to and never from.
"""
