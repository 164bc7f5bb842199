"""The words questions, logs and answers use live in the lexicon (react_engine/lexicon/) and nowhere else: no other
module of the package keeps its own literal list of words, or writes superlatives, time units, severities or bucket
words into a pattern of its own; and every list of the lexicon says what it holds."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from react_engine.lexicon.measure_units import UNITS_OF_MEASURE
from react_engine.lexicon.rank_words import HIGH, LOW, QUIET
from react_engine.lexicon.severity_terms import SEVERITY_WORDS
from react_engine.lexicon.time_units import UNITS_OF_TIME

PACKAGE = Path(__file__).resolve().parents[1] / "react_engine"
LEXICON = PACKAGE / "lexicon"
SCANNED = (PACKAGE,)
MIN_WORDS = 3
_PROTOCOL = "names of a protocol the code speaks (JSON Schema, a model's reply or API, file metadata), not words"
_FORMAT = "a log format's own names: the keys and types its lines or headers write, read as they are written"
# literal collections of words that are not vocabulary, by module: the words as a sorted tuple, and why
NOT_VOCABULARY = {
    ("question/reading/export_words.py", ("json", "jsonl", "ndjson")): "file name extensions",
    ("app/cli/completion.py", ("bash", "fish", "zsh")): "the shells a completion script is written for",
    ("contract/actions.py", ("args", "arguments", "input", "parameters", "params")): _PROTOCOL,
    ("contract/reply_schema.py", ("description", "enum", "format", "items", "maximum", "minimum", "pattern",
                                  "properties", "required", "type")): _PROTOCOL,
    ("dask/files.py", ("created", "mtime", "updated")): _PROTOCOL,
    ("planners/llamacpp.py", ("seed", "stop", "temperature")): _PROTOCOL,
    ("planners/openai.py", ("messages", "model", "temperature")): _PROTOCOL,
    ("planners/modelfile.py", ("adapter", "from", "license", "message", "parameter", "requires", "system",
                               "template")): "the instructions of a Modelfile",
    ("planners/chaos.py", ("grep", "python", "search")): "tool names a faulty planner invents",
    ("planners/chaos.py", ("fence", "intent", "prose", "repeat", "think", "truncated")): "the faults it injects",
    ("loop/outcome.py", ("cannot compute", "could not answer", "did not read")): "openings of the engine's own "
    "replies, found in a reply it wrote",
    ("tools/entities.py", ("app", "arpa", "biz", "cloud", "com", "corp", "dev", "edu", "example", "gov", "info", "int",
                           "internal", "invalid", "lan", "local", "localdomain", "mil", "net", "org", "test")):
    "top-level domains, which end a host name",
    ("tools/times.py", ("ends", "starts", "unclosed", "unopened")): "the keys of a tool's result",
    ("logs/formats/headed.py", ("count", "double", "int", "interval", "port", "time")): _FORMAT,
    ("logs/formats/jsonl.py", ("asctime", "date", "datetime", "time", "timestamp")): _FORMAT,
    ("logs/formats/jsonl.py", ("level", "levelname", "loglevel", "lvl", "priority", "severity")): _FORMAT,
    ("logs/formats/jsonl.py", ("app", "component", "logger", "module", "name", "program", "service", "source")):
    _FORMAT,
    ("logs/formats/jsonl.py", ("pid", "process", "thread")): _FORMAT,
}
# modules whose patterns write severities as a log format writes them: exactly the levels it writes, in its case
FORMAT_LEVELS = ("logs/formats/",)
_WORD = re.compile(r"[a-z][a-z' ]*[a-z]")


def _code_names() -> frozenset[str]:
    """The names the code itself declares or reads by, which a literal collection may hold without being vocabulary:
    the values of every `Literal[...]`, the fields of every class (pydantic models, dataclasses), the names of
    modules, functions, parameters and keyword arguments, the keys the code looks values up by (`row["count"]`,
    `.get("level")`), the groups its patterns name (`(?P<level>...)`), the loaded rows' columns, the canonical
    severities, the entity types the tools extract, the timestamp shapes and the commands of the command line."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        names.add(path.stem)
        for node in ast.walk(ast.parse(path.read_text())):
            names.update(_names_of(node))
    from react_engine.app.cli import COMMANDS
    from react_engine.logs.schema import CANONICAL_COLUMNS, INTERNAL_COLUMNS
    from react_engine.logs.severity import SEVERITIES
    from react_engine.logs.timestamps import SHAPES
    from react_engine.question.vocabulary import ENTITY_SIGNS, VALUE_COLUMNS
    from react_engine.tools.entities import ALIASES, BUILTIN

    return frozenset(names | {*CANONICAL_COLUMNS, *INTERNAL_COLUMNS, *VALUE_COLUMNS, *ENTITY_SIGNS, *SEVERITIES,
                              *BUILTIN, *ALIASES, *SHAPES, *COMMANDS})


def _names_of(node: ast.AST) -> set[str]:
    """The code names one node declares or reads by (see `_code_names`)."""
    def text(expr: ast.AST | None) -> set[str]:
        return {expr.value} if isinstance(expr, ast.Constant) and isinstance(expr.value, str) else set()

    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal":
        return {c.value for c in ast.walk(node.slice) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    if isinstance(node, ast.Subscript):
        return text(node.slice)
    if isinstance(node, ast.ClassDef):
        return {s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {node.name, *(a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg))}
    if isinstance(node, ast.Call):
        looked_up = isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop", "setdefault")
        return {k.arg for k in node.keywords if k.arg} | (text(node.args[0]) if looked_up and node.args else set())
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return set(re.findall(r"\(\?P<(\w+)>", node.value))
    return set()


def _strings(node: ast.AST) -> list[str]:
    """The string items of a literal collection (a dict's keys, or its values when they are more of them)."""
    def of(items: list[ast.expr | None]) -> list[str]:
        return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]

    if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
        return of(list(node.elts))
    if isinstance(node, ast.Dict):
        return max(of(list(node.keys)), of(list(node.values)), key=len)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split" and \
            isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
        return node.func.value.value.split()  # "a b c".split()
    return []


def word_lists(source: str, code_names: frozenset[str]) -> list[tuple[int, tuple[str, ...]]]:
    """`(line, words)` of each literal collection in `source` holding at least `MIN_WORDS` words of three letters
    or more, unless every word is a name the code declares (`code_names`)."""
    tree = ast.parse(source)
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.Subscript) for n in ast.walk(node.slice)}
    skipped |= {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        words = tuple(sorted({s for s in _strings(node) if len(s) >= 3 and _WORD.fullmatch(s)}))
        if len(words) >= MIN_WORDS and not set(words) <= code_names:
            found.append((getattr(node, "lineno", 0), words))
    return found


def test_code_names_are_the_names_the_code_reads_by() -> None:
    source = 'def f(rows, *, limit=1):\n    g(rows["count"], key=1)\n    row.get("level")\n    R = "(?P<iso>x)"\n'
    names = set().union(*(_names_of(n) for n in ast.walk(ast.parse(source))))
    assert names == {"f", "rows", "limit", "count", "key", "level", "iso"}


def _scanned() -> list[Path]:
    return [p for root in SCANNED for p in sorted(root.rglob("*.py")) if LEXICON not in p.parents]


def test_no_word_list_is_kept_outside_the_lexicon() -> None:
    names = _code_names()
    found = []
    for path in _scanned():
        where = path.relative_to(PACKAGE).as_posix()
        found += [f"{where}:{line}: {', '.join(words)}" for line, words in word_lists(path.read_text(), names)
                  if (where, words) not in NOT_VOCABULARY]
    assert not found, "word lists outside react_engine/lexicon/ (move them there):\n" + "\n".join(found)


def test_the_scan_finds_a_word_list_and_leaves_code_names() -> None:
    source = ('_MOST = ("most", "largest", "busiest")\nOrder = Literal["oldest", "newest", "first"]\n'
              'x = "hour minute day".split()\ny = {"mean": 1, "median": 2, "max": 3}\n')
    assert word_lists(source, frozenset({"mean", "median", "max"})) == [
        (1, ("busiest", "largest", "most")), (3, ("day", "hour", "minute"))]


_KINDS = {
    "superlatives": {*HIGH, *LOW, *QUIET},
    "time units": {u.name for u in UNITS_OF_TIME} | {s for u in UNITS_OF_TIME for s in u.spellings if len(s) > 2},
    "units of measure": {a for u in UNITS_OF_MEASURE for a in u.aliases if len(a) > 2},
    "severities": {level.lower() for _, level in SEVERITY_WORDS},
    "buckets": {u.adverb for u in UNITS_OF_TIME if u.adverb} | {u.name for u in UNITS_OF_TIME},
}


def written_lists(source: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """`(line, kind, words)` for each pattern of `source` (a string with alternatives, "most|largest|busiest"; prose
    such as a docstring or a format's description is not one) that writes `MIN_WORDS` or more words of one kind of
    `_KINDS`."""
    tree = ast.parse(source)
    docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "|" in node.value and id(node) not in docs:
            words = set(re.findall(r"[a-z]+", node.value.lower()))
            found += [(node.lineno, kind, tuple(sorted(words & known))) for kind, known in _KINDS.items()
                      if len(words & known) >= MIN_WORDS]
    return found


def test_no_pattern_outside_the_lexicon_writes_superlatives_units_severities_or_buckets() -> None:
    found = [f"{where}:{line}: {kind} {', '.join(words)}" for path in _scanned()
             for line, kind, words in written_lists(path.read_text())
             if not ((where := path.relative_to(PACKAGE).as_posix()).startswith(FORMAT_LEVELS) and kind == "severities")]
    assert not found, "patterns that write the lexicon's words themselves (build them from it):\n" + "\n".join(found)


def test_the_pattern_scan_finds_written_superlatives() -> None:
    source = ('"""most, largest and busiest, in a docstring"""\n_MOST = r"\\b(?:most|largest|busiest)\\b"\n'
              'f("epoch", "a time in seconds, milliseconds or microseconds")\n')
    assert written_lists(source) == [(2, "superlatives", ("busiest", "largest", "most"))]


def test_every_list_of_the_lexicon_says_what_it_holds() -> None:
    undocumented = []
    for path in sorted(LEXICON.glob("*.py")):
        body = ast.parse(path.read_text()).body
        for node, after in zip(body, [*body[1:], None]):
            names = [t.id for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                     if isinstance(t, ast.Name)] if isinstance(node, (ast.Assign, ast.AnnAssign)) else []
            documented = isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and isinstance(
                after.value.value, str)
            undocumented += [f"{path.name}: {n}" for n in names if n.isupper() and not documented]
    assert not undocumented, "lexicon lists without a docstring:\n" + "\n".join(undocumented)
