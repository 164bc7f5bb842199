"""A reply grammar checked against the likeliest tokens first, the whole vocabulary only when none of them fits.

llama-cpp-python puts the grammar in its sampler chain before top-k, so at every token each of the vocabulary's
entries is matched against the grammar: 262,144 for Gemma 3, where that costs three times the model's own step.
llama.cpp's own sampler samples first and consults the grammar only when the chosen token breaks it; this does the
same as the chain's first sampler: the `TOP` likeliest tokens (and end-of-generation) are matched, every other
token is masked, and only when none of them is allowed is the whole vocabulary matched. Greedy decoding picks the
token the full grammar would have picked (the likeliest allowed token is among the likeliest `TOP` whenever any
of them is allowed), and no token the grammar forbids is ever offered to the rest of the chain.
"""

from __future__ import annotations

import ctypes
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from llama_cpp import Llama, LlamaGrammar

TOP = 64
TOKEN_DATA = np.dtype([("id", np.intc), ("logit", np.single), ("p", np.single)], align=True)  # llama_token_data


class LazyGrammar:
    """A llama-cpp-python logits processor for one reply: the tokens the grammar allows keep their logits."""

    def __init__(self, llama: Llama, grammar: LlamaGrammar, top: int = TOP) -> None:
        import llama_cpp

        self._api: Any = llama_cpp
        vocab = llama._model.vocab
        self._sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar._grammar.encode(), grammar._root.encode())
        if not self._sampler:
            raise ValueError("llama.cpp could not parse the reply grammar")
        self._always = end_tokens(llama)
        self._top = top
        self._seen: int | None = None  # tokens of the context the grammar has accepted up to
        self.full_passes = 0

    def __call__(self, input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]) -> npt.NDArray[np.single]:
        self._accept(input_ids)
        likeliest = np.argpartition(scores, -self._top)[-self._top:] if len(scores) > self._top else \
            np.arange(len(scores))  # fmt: skip
        allowed = self._allowed(np.union1d(likeliest, self._always), scores)
        if not len(allowed):
            self.full_passes += 1
            allowed = self._allowed(np.arange(len(scores), dtype=np.intc), scores)
        masked = np.full_like(scores, -np.inf)
        masked[allowed] = scores[allowed]
        return masked

    def close(self) -> None:
        """Free the grammar's state in llama.cpp."""
        if self._sampler:
            self._api.llama_sampler_free(self._sampler)
            self._sampler = None

    def _accept(self, input_ids: npt.NDArray[np.intc]) -> None:
        """Advance the grammar over the tokens sampled since the last call (the prompt's are not the reply's)."""
        if self._seen is not None:
            for token in input_ids[self._seen:]:
                self._api.llama_sampler_accept(self._sampler, int(token))
        self._seen = len(input_ids)

    def _allowed(self, ids: npt.NDArray[Any], scores: npt.NDArray[np.single]) -> npt.NDArray[np.intc]:
        """The tokens of `ids` the grammar allows next."""
        data = np.zeros(len(ids), dtype=TOKEN_DATA)
        data["id"] = ids
        data["logit"] = scores[ids]
        array = self._api.llama_token_data_array(data=data.ctypes.data_as(self._api.llama_token_data_p),
                                                 size=len(ids), selected=-1, sorted=False)  # fmt: skip
        self._api.llama_sampler_apply(self._sampler, ctypes.byref(array))
        return np.asarray(data["id"][np.isfinite(data["logit"])], dtype=np.intc)


@cache
def end_tokens(llama: Llama) -> npt.NDArray[np.intc]:
    """The model's end-of-generation tokens (EOS, end of turn), found once per model: the grammar allows them
    once the reply is complete, and they need not be among the likeliest then."""
    import llama_cpp

    vocab = llama._model.vocab
    ends = [token for token in range(llama.n_vocab()) if llama_cpp.llama_vocab_is_eog(vocab, token)]
    ends.append(llama.token_eos())
    return np.unique(np.array(ends, dtype=np.intc))
