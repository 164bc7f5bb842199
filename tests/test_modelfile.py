"""The Modelfile parser: Ollama's syntax, typed PARAMETERs, line-numbered errors, and a rendering round trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.planners.modelfile import (
    FLOAT_PARAMS,
    INT_PARAMS,
    Modelfile,
    ModelfileError,
    bundled,
    parse_modelfile,
)

EXAMPLE = '''# A planner model
from qwen3:4b
parameter temperature 0
PARAMETER num_ctx 8192
PARAMETER stop "<|im_end|>"
PARAMETER stop <|endoftext|>
Parameter use_mmap true
SYSTEM """You reply in JSON.

Only JSON."""
TEMPLATE "{{ .System }} {{ .Prompt }}"
MESSAGE user How many errors?
MESSAGE assistant """{"action": "count_rows"}"""
LICENSE """MIT
text"""
LICENSE Apache-2.0
REQUIRES 0.6.0
'''


def test_parses_every_instruction_case_insensitively():
    mf = parse_modelfile(EXAMPLE)
    assert mf.model == "qwen3:4b"
    assert mf.parameters == {
        "temperature": 0.0,
        "num_ctx": 8192,
        "stop": ["<|im_end|>", "<|endoftext|>"],
        "use_mmap": True,
    }
    assert isinstance(mf.parameters["num_ctx"], int) and isinstance(mf.parameters["temperature"], float)
    assert mf.system == "You reply in JSON.\n\nOnly JSON."
    assert mf.template == "{{ .System }} {{ .Prompt }}"
    assert [(m.role, m.content) for m in mf.messages] == [
        ("user", "How many errors?"),
        ("assistant", '{"action": "count_rows"}'),
    ]
    assert mf.license == ["MIT\ntext", "Apache-2.0"]
    assert mf.requires == "0.6.0"


def test_create_kwargs_match_the_client_signature():
    kwargs = parse_modelfile(EXAMPLE).to_create_kwargs("planner")
    assert kwargs["model"] == "planner" and kwargs["from_"] == "qwen3:4b"
    assert kwargs["messages"][0] == {"role": "user", "content": "How many errors?"}
    assert "modelfile" not in kwargs and "path" not in kwargs
    assert set(parse_modelfile("FROM x").to_create_kwargs("y")) == {"model", "from_"}


def test_adapter_needs_ollama_create():
    mf = parse_modelfile("FROM llama3.1:8b\nADAPTER ./lora.gguf\n")
    assert mf.adapters == ["./lora.gguf"]
    with pytest.raises(ModelfileError, match="ollama create -f"):
        mf.to_create_kwargs("tuned")


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("FROM a\nPARAMETER bogus 1\n", 2, "unknown PARAMETER 'bogus'"),
        ("FROM a\n\nPARAMETER num_ctx lots\n", 3, "must be an integer"),
        ("FROM a\nPARAMETER temperature hot\n", 2, "must be a number"),
        ("FROM a\nPARAMETER use_mmap maybe\n", 2, "true or false"),
        ("FROM a\nFROBNICATE x\n", 2, "unknown instruction 'FROBNICATE'"),
        ("FROM a\nMESSAGE tool hi\n", 2, "role 'tool' is invalid"),
        ("FROM a\nMESSAGE user\n", 2, "needs a name and a value"),
        ("# c\nFROM a\nSYSTEM\n", 3, "SYSTEM needs a value"),
        ('FROM a\nSYSTEM """open\nnever closed\n', 2, 'unterminated """'),
        ('FROM a\nTEMPLATE "half\n', 2, 'unterminated "'),
    ],
)
def test_errors_name_the_line(text, line, fragment):
    with pytest.raises(ModelfileError) as caught:
        parse_modelfile(text, source="my.Modelfile")
    message = str(caught.value)
    assert message.startswith(f"my.Modelfile:{line}: ") and fragment in message and "\n" not in message


def test_missing_from_is_an_error():
    with pytest.raises(ModelfileError, match="no FROM line"):
        parse_modelfile("# only\nPARAMETER seed 1\n")


def test_unreadable_file_names_the_path(tmp_path):
    with pytest.raises(ModelfileError, match=str(tmp_path / "nope")):
        Modelfile.read(tmp_path / "nope")


def test_bundled_modelfiles_follow_the_protocol():
    paths = bundled()
    assert len(paths) >= 3
    assert Path("modelfiles").resolve() == paths[0].parent or not Path("modelfiles").exists()
    for path in paths:
        mf = Modelfile.read(path)
        head = path.read_text().splitlines()[0]
        assert head.startswith("# ") and mf.model.split(":")[0] in head
        assert mf.parameters["temperature"] == 0 and mf.parameters["seed"] >= 0
        assert mf.parameters["num_ctx"] > mf.parameters["num_predict"] > 0
        assert mf.parameters["stop"]
        assert mf.system and "finalize_answer" in mf.system and '"reasoning"' in mf.system
        assert "invent" in mf.system


# --- round trip: render random Modelfiles, parse them back ---------------------------------------------------

_chars = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters='"')
_line = st.text(_chars, min_size=1, max_size=20).filter(lambda s: s.strip() == s and not s.startswith("#"))
_block = st.lists(st.text(_chars, max_size=15), min_size=1, max_size=4).map("\n".join)
_name = st.from_regex(r"[a-z][a-z0-9.-]{0,8}(:[a-z0-9.]{1,5})?", fullmatch=True)
_params = st.fixed_dictionaries(
    {},
    optional={
        **{k: st.integers(-1, 1 << 20) for k in sorted(INT_PARAMS)[:4]},
        **{k: st.floats(0, 2, allow_nan=False).map(lambda f: round(f, 3)) for k in sorted(FLOAT_PARAMS)[:3]},
        "stop": st.lists(_line, min_size=1, max_size=3),
    },
)
modelfiles = st.builds(
    Modelfile,
    model=_name,
    parameters=_params,
    system=st.none() | _block,
    template=st.none() | _line,
    messages=st.lists(st.builds(dict, role=st.sampled_from(["system", "user", "assistant"]), content=_block),
                      max_size=3),
    license=st.lists(_block, max_size=2),
)


def render(mf: Modelfile, upper: bool) -> str:
    case = str.upper if upper else str.lower
    lines = ["# generated", f"{case('from')} {mf.model}"]
    for key, value in mf.parameters.items():
        for item in value if isinstance(value, list) else [value]:
            lines.append(f'{case("parameter")} {key} "{item}"')
    if mf.system is not None:
        lines.append(f'{case("system")} """{mf.system}"""')
    if mf.template is not None:
        lines.append(f"{case('template')} {mf.template}")
    lines += [f'{case("message")} {m.role} """{m.content}"""' for m in mf.messages]
    lines += [f'{case("license")} """{text}"""' for text in mf.license]
    return "\n".join(lines) + "\n"


@settings(max_examples=80, deadline=None)
@given(modelfiles, st.booleans())
def test_render_then_parse_round_trips(mf: Modelfile, upper: bool):
    assert parse_modelfile(render(mf, upper)) == mf
