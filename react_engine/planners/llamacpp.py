"""The llama.cpp planner: a GGUF model run in-process through llama-cpp-python, its replies grammar-constrained
(lazily: `lazy_grammar`).

The model is loaded once per process (per path and context size), so a batch, an eval or a chat loads it once.
A Modelfile whose FROM is a `.gguf` path selects this planner: its PARAMETERs map to llama.cpp settings and its
SYSTEM and MESSAGEs go with every request, as with Ollama.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from react_engine.contract.planner import ModelUsage, PlannerReply, PlanRequest
from react_engine.errors import ContextTooSmallError, InputError, PlannerError, PlannerServerError
from react_engine.planners.lazy_grammar import TOP, LazyGrammar
from react_engine.planners.modelfile import Modelfile
from react_engine.planners.remote import ACTION_TOKENS, ModelPlanner
from react_engine.planners.retry import RetryPolicy

if TYPE_CHECKING:
    from llama_cpp import Llama, LlamaGrammar

BUILD_FLAGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
)
INSTALL_HINT = f'CMAKE_ARGS="{BUILD_FLAGS}" pip install -e ".[llamacpp]"'
DEFAULT_NUM_CTX = 4096
DEFAULT_NUM_PREDICT = ACTION_TOKENS
# Modelfile PARAMETER -> create_chat_completion argument (num_ctx and num_thread apply when the model is loaded)
SAMPLING = {"temperature": "temperature", "top_k": "top_k", "top_p": "top_p", "min_p": "min_p",
            "repeat_penalty": "repeat_penalty", "presence_penalty": "presence_penalty",
            "frequency_penalty": "frequency_penalty", "seed": "seed", "stop": "stop"}  # fmt: skip
LOAD = ("num_ctx", "num_thread", "num_predict")
DEFAULTS: dict[str, Any] = {"temperature": 0.0, "seed": 42}
# llama-cpp-python falls back to Llama 2's chat format for a GGUF with no chat template (Gemma 3 270M's has none);
# the formats of these architectures are known to it. Its "gemma" format has no system turn: Gemma's own
# template puts the system text at the head of the first user turn, and so does `messages`.
FORMATS = {"gemma": "gemma", "gemma2": "gemma", "gemma3": "gemma"}

_models: dict[tuple[str, int, int | None], Llama] = {}
_lock = threading.Lock()


def _llama_cpp() -> Any:
    try:
        import llama_cpp
    except ImportError:
        raise InputError(f"--planner llamacpp needs llama-cpp-python: {INSTALL_HINT} (a 10-30 minute build)") \
            from None
    return llama_cpp


def load_model(path: Path, n_ctx: int, n_threads: int | None = None) -> Llama:
    """The model at `path`, loaded on first use and kept for the life of the process."""
    if not path.is_file():
        raise InputError(f"{path}: no such model file: give the path of a .gguf file with --model")
    llama_cpp = _llama_cpp()
    key = (str(path.resolve()), n_ctx, n_threads)
    with _lock:
        if key not in _models:
            try:
                usable = usable_cpus()
                _models[key] = llama_cpp.Llama(model_path=str(path), n_ctx=n_ctx, seed=42, verbose=False,
                                               n_threads=n_threads or max(1, usable // 2),
                                               n_threads_batch=n_threads or usable)  # fmt: skip
            except (ValueError, RuntimeError) as exc:
                raise InputError(f"{path}: llama.cpp cannot load it ({exc}): check that it is a GGUF model file") \
                    from None
            if len(_models) == 1:
                atexit.register(_close_models)
        return _models[key]


def _close_models() -> None:
    """Free the loaded models at exit while llama.cpp can still be called (left to the garbage collector, each
    prints a traceback as the interpreter shuts down)."""
    with _lock:
        for model in _models.values():
            model.close()
        _models.clear()


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, as `taskset` or a container sets it), not all the machine's:
    llama.cpp's threads wait by spinning, so two threads on one CPU take turns at every step of a prompt."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


class _Deadline(Exception):
    """Raised from inside generation when the request's time is up."""


class LlamaCppPlanner(ModelPlanner):
    """Runs a GGUF model in-process; each reply is constrained by a grammar built from the reply schema."""

    name = "llamacpp"

    def __init__(
        self,
        model: str | Path,
        *,
        modelfile: Modelfile | None = None,
        options: dict[str, Any] | None = None,
        timeout: float = 300.0,
        retry: RetryPolicy | None = None,
        schema: dict[str, Any] | None = None,
    ) -> None:
        self.options = {**DEFAULTS, **(modelfile.parameters if modelfile else {}), **(options or {})}
        self.ignored = sorted(set(self.options) - set(SAMPLING) - set(LOAD))
        super().__init__(
            str(model),
            num_ctx=int(self.options.get("num_ctx", DEFAULT_NUM_CTX)),
            num_predict=int(self.options.get("num_predict", DEFAULT_NUM_PREDICT)),
            timeout=timeout,
            retry=retry or RetryPolicy(max_attempts=1),  # nothing transient to retry in-process
            schema=schema,
            modelfile=modelfile,
        )
        threads = self.options.get("num_thread")
        self.llama: Any = load_model(Path(model), self.num_ctx, int(threads) if threads else None)
        self._grammars: dict[str, LlamaGrammar] = {}
        metadata = self.llama.metadata
        if "tokenizer.chat_template" not in metadata and metadata.get("general.architecture") in FORMATS:
            self.llama.chat_format = FORMATS[metadata["general.architecture"]]

    def messages(self, request: PlanRequest) -> list[dict[str, str]]:
        system, *turns = super().messages(request)
        if self.llama.chat_format != "gemma":
            return [system, *turns]
        first = turns[0] if turns[0]["role"] == "user" else {"role": "user", "content": ""}
        rest = turns[1:] if first is turns[0] else turns
        return [{"role": "user", "content": f"{system['content']}\n\n{first['content']}".strip()}, *rest]

    def grammar_for(self, request: PlanRequest) -> LlamaGrammar:
        """The grammar for this turn's reply schema (converted once per schema)."""
        text = json.dumps(self.schema_for(request), sort_keys=True)
        if text not in self._grammars:
            self._grammars[text] = _llama_cpp().LlamaGrammar.from_json_schema(text, verbose=False)
        return self._grammars[text]

    def _failure(self, exc: Exception, name: str) -> PlannerError:
        """The planner error llama.cpp's `exc` means: a prompt past the context window, or a failed run."""
        if "exceed context window" in str(exc):
            return ContextTooSmallError(f"the prompt does not fit {name}'s context window of {self.num_ctx} tokens: "
                                        "raise num_ctx (--num-ctx or PARAMETER num_ctx)")
        return PlannerServerError(f"llama.cpp failed on {name}: {exc}")

    def _ask(self, request: PlanRequest, num_predict: int) -> PlannerReply:
        sampling = {SAMPLING[k]: v for k, v in self.options.items() if k in SAMPLING}
        name = Path(self.model).name
        began = time.perf_counter()
        parts: list[str] = []
        grammar: LazyGrammar | None = None
        try:
            grammar = LazyGrammar(self.llama, self.grammar_for(request), top=max(TOP, int(sampling.get("top_k") or 0)))
            with self.bounded(f"the model {name}") as deadline:
                stream = self.llama.create_chat_completion(
                    messages=self.messages(request),
                    logits_processor=_llama_cpp().LogitsProcessorList([grammar]),
                    max_tokens=num_predict if num_predict > 0 else None,
                    stream=True,
                    **sampling,
                )
                finish, first = _read_stream(stream, deadline, parts)
        except (ValueError, RuntimeError) as exc:
            raise self._failure(exc, name) from None
        finally:
            if grammar is not None:
                grammar.close()
        return PlannerReply(content="".join(parts), done_reason=finish, model=name,
                            usage=self._usage(sum(1 for part in parts if part), began, first))

    def _usage(self, completion: int, began: float, first: float | None) -> ModelUsage:
        """The tokens and times of one completion of `completion` tokens, begun at `began`, its first token at
        `first` (None when none came)."""
        ended = time.perf_counter()
        first = first or ended
        return ModelUsage(
            requests=1,
            prompt_tokens=max(0, self.llama.n_tokens - completion),  # the context holds prompt and reply
            completion_tokens=completion,
            prompt_ms=round((first - began) * 1000, 3),
            eval_ms=round((ended - first) * 1000, 3),
            total_ms=round((ended - began) * 1000, 3),
        )


def _read_stream(stream: Any, deadline: float, parts: list[str]) -> tuple[str | None, float | None]:
    """Read a streamed completion into `parts` (so the deadline is checked between tokens): its finish reason
    and when its first token came (the prompt had been read by then)."""
    finish, first = None, None
    for chunk in stream:
        first = first or time.perf_counter()
        choice = chunk["choices"][0]
        parts.append(choice["delta"].get("content") or "")
        finish = choice.get("finish_reason") or finish
        if time.monotonic() >= deadline:
            stream.close()
            raise _Deadline
    return finish, first
