"""The lazily applied reply grammar: the same greedy replies as llama-cpp-python's full grammar, and the whole
vocabulary consulted when none of the likeliest tokens fits (a real tiny GGUF, in-process)."""

from __future__ import annotations

import json
import re

import pytest
from tiny_models import real_model

from react_engine.planners.llamacpp import load_model

PROMPTS = ["How many lines are there in the log?", "Which host logged the most errors yesterday?",
           "Say hello to me in French."]  # fmt: skip
SCHEMA = {"type": "object", "properties": {"action": {"enum": ["count", "rank", "finalize_answer"]},
                                           "reasoning": {"type": "string", "maxLength": 40}},
          "required": ["action", "reasoning"], "additionalProperties": False}  # fmt: skip


def _complete(llama, prompt: str, **constraint):
    reply = llama.create_chat_completion(messages=[{"role": "user", "content": prompt}], max_tokens=96,
                                         temperature=0.0, seed=42, **constraint)  # fmt: skip
    return reply["choices"][0]["message"]["content"]


@pytest.mark.real_model
@pytest.mark.parametrize("name", ["smollm2-135m", "gemma3-270m"])
def test_lazy_and_full_grammars_give_the_same_greedy_reply(name: str) -> None:
    llama = load_model(real_model(name=name), 2048)  # skips without llama-cpp-python or the model
    import llama_cpp

    from react_engine.planners.lazy_grammar import LazyGrammar

    grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(SCHEMA), verbose=False)
    for prompt in PROMPTS:
        full = _complete(llama, prompt, grammar=grammar)
        lazy = LazyGrammar(llama, grammar)
        try:
            assert _complete(llama, prompt, logits_processor=llama_cpp.LogitsProcessorList([lazy])) == full
        finally:
            lazy.close()
        assert json.loads(full)["action"] in SCHEMA["properties"]["action"]["enum"]


@pytest.mark.real_model
def test_when_no_likely_token_fits_the_whole_vocabulary_is_consulted() -> None:
    llama = load_model(real_model(), 2048)  # skips without llama-cpp-python or the model
    import llama_cpp

    from react_engine.planners.lazy_grammar import LazyGrammar

    grammar = llama_cpp.LlamaGrammar.from_string('root ::= "zq" [0-9] [0-9] "x"', verbose=False)
    lazy = LazyGrammar(llama, grammar, top=1)  # the likeliest token alone: "zq" is never it
    try:
        reply = _complete(llama, "Write a poem about the sea.", logits_processor=llama_cpp.LogitsProcessorList([lazy]))
    finally:
        lazy.close()
    assert re.fullmatch(r"zq[0-9]{2}x", reply), reply
    assert lazy.full_passes >= 1


@pytest.mark.real_model
def test_a_grammar_llama_cpp_cannot_parse_is_a_planner_error_not_a_traceback() -> None:
    from react_engine.errors import PlannerServerError
    from react_engine.planners.factory import PlannerSpec, make_planner
    from react_engine.planners.llamacpp import _llama_cpp

    planner, _ = make_planner(PlannerSpec(kind="llamacpp", model=str(real_model())))
    broken = _llama_cpp().LlamaGrammar.from_string('root ::= ("unclosed', verbose=False)
    planner.grammar_for = lambda request: broken  # type: ignore[method-assign]
    with pytest.raises(PlannerServerError, match="could not parse the reply grammar"):
        planner._ask(_request(), 16)


def _request():
    from react_engine.contract.planner import ContextView, PlanRequest

    view = ContextView(question="q", iteration=1, max_iterations=3, now=None, total_rows=1, row_count=1, columns=[])
    return PlanRequest(system="s", prompt="How many lines are there?", prompt_tokens=10, view=view)
