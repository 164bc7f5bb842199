"""The built-in planner: maps a question to a fixed tool sequence with rules, no model needed.

Each turn it takes the question's reading (`react_engine.understanding.reading`, built once per run), compiles
its `Query` into tool calls, and sends the next call the history does not show yet, in the same JSON shape a
model would. After the last tool it words the answer from the query and the values its tools computed. A
question it cannot map is answered with a suggested phrasing and no value: it never guesses.

- `plan`: a reading -> its calls (`compile`: a `Query` -> calls); `planner`: the turn-by-turn planner;
- `answer`, `measured`, `timing`, `investigate`: the values -> the final sentence;
- `hint`: the rephrase hint, in the loaded log's own words.
"""

from react_engine.planners.rules.planner import RulesPlanner, advise

__all__ = ["RulesPlanner", "advise"]
