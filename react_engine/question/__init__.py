"""Question understanding shared by every planner: what the loaded rows contain, typos, dates in words, and what
was understood (the `interpretation` of a run).

- `vocabulary`: the words and names of the loaded rows, built once per load;
- `spelling`: conservative typo correction against that vocabulary and the planner's lexicon;
- `dates`: dates and times written in words;
- `interpretation`: the typed record of what a question was read as, and its compact prompt notes;
- `query`, `measures`: the typed `Query` a question is read into (filters, measure, grouping, order, limit, the
  words left unread), which the rules planner compiles into tool calls;
- `reading`: the readers that turn a question into its `Query` (`reading.read.read_question`).
"""

from react_engine.question.interpretation import Correction, Interpretation, Term, TimeWindow
from react_engine.question.query import Query
from react_engine.question.vocabulary import Vocabulary

__all__ = ["Correction", "Interpretation", "Query", "Term", "TimeWindow", "Vocabulary"]
