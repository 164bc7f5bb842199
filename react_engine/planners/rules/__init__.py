"""The built-in planner: maps a question to a fixed tool sequence with rules, no model needed.

Each turn it reads the question again, derives the whole plan (deterministically), and sends the next action
the history does not show yet, in the same JSON shape a model would. After the last tool it answers with the
value that tool computed. A question it cannot map is answered with a suggested phrasing and no value: it
never guesses.

- `vocabulary`: the words understood and how logs write what they mean;
- `question`: consumed spans, time windows, names that occur in the data;
- `plan`: question -> calls; `answer`: values -> the final sentence; `planner`: the turn-by-turn planner;
- `hint`: the rephrase hint, in the loaded log's own words.
"""

from react_engine.planners.rules.planner import RulesPlanner, advise

__all__ = ["RulesPlanner", "advise"]
