"""KV-cache snapshots of each prompt family's fixed prefix, kept in memory and on disk, so no call re-reads them.

A prompt family is a set of prompts that differ only in their last message: the query prompt's instructions
and worked examples, then "Question: ...". Its fixed prefix is every token before that last message's text.
llama.cpp keeps one KV cache and llama-cpp-python's `Llama.generate` reuses the longest common prefix of
`input_ids` with the next prompt. So before each call we make the cache hold exactly the family's prefix:

- it already does (the same family as the last call): nothing to do;
- a snapshot of it is in memory (RAG-Fusion alternates the query and answer prompts) or on disk (a new
  process: every CLI call, the window after a restart): restore it and set `input_ids`/`n_tokens` to the
  prefix, so `generate` evaluates only the question;
- otherwise evaluate the prefix alone, snapshot it, and save the snapshot to disk for the next process.

What is saved is llama.cpp's sequence state of seq 0 right after the prefix (`llama_state_seq_get_data`):
the K/V rows of exactly those tokens with their positions, never the question or answer tokens, and none of
the logits that `llama_state_get_data` adds (`Llama.save_state` also copies a ~300 MB logits array). Being
exactly the prefix is what makes a snapshot valid for every question of the family. Restoring it leaves
`_requires_eval` set, so `generate` always decodes at least the question before sampling: the restored state
and a fresh read give the same tokens, because the KV rows are the same bytes in the same cells.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from .prefix_store import PrefixStore

log = logging.getLogger(__name__)

Message = dict[str, str]

# A prefix this short is not worth a file. Restoring a snapshot takes milliseconds while reading costs ~8 ms a
# token on 2 cores: the question check's 23-token prefix kept takes its call from 0.90 s to 0.71 s (median).
MIN_PREFIX_TOKENS = 16
# Context settings that change the bytes or meaning of a KV state (llama.cpp itself checks only the layer
# count, the K/V types and row sizes and the V layout). n_batch/n_ubatch change how the prefix is split
# into matrix products, which can change the last bits of the K/V values: kept so a restored state gives
# exactly the tokens a fresh read gives. The seed is not here: samplers live outside the state.
CONTEXT_FIELDS = (
    "n_batch", "n_ubatch", "type_k", "type_v", "flash_attn_type", "rope_scaling_type", "rope_freq_base",
    "rope_freq_scale", "yarn_ext_factor", "yarn_attn_factor", "yarn_beta_fast", "yarn_beta_slow",
    "yarn_orig_ctx", "swa_full", "kv_unified", "n_seq_max",
)  # fmt: skip


@dataclass(frozen=True)
class PrefixUse:
    """How one call got its prompt's fixed prefix into the KV cache."""

    prefix_tokens: int  # tokens in the family's fixed prefix (0: none worth keeping)
    source: str  # "live" (already there), "memory", "disk", "read" (evaluated now), "none"
    evaluated: int  # prefix tokens llama.cpp had to evaluate for it
    disk: str = ""  # what the disk cache said when asked: loaded, missing, stale, damaged


class PrefixSnapshots:
    def __init__(self, store: PrefixStore | None = None, capacity: int = 6):
        self.store = store  # None: memory only
        self.capacity = capacity
        self._saved: OrderedDict[bytes, bytes] = OrderedDict()  # prefix token ids -> sequence state
        self._prefixes: dict[str, list[int]] = {}  # family -> its prefix token ids
        self._context: dict | None = None

    def prepare(self, llm, messages: Sequence[Message]) -> PrefixUse:
        """Make llama.cpp's KV cache hold exactly this prompt's fixed prefix (or more of the same prompt)."""
        prefix = self.prefix_tokens(llm, messages)
        n = len(prefix)
        if n < MIN_PREFIX_TOKENS:
            return PrefixUse(0, "none", 0)
        if llm.n_tokens >= n and llm.input_ids[:n].tolist() == prefix:
            return PrefixUse(n, "live", 0)
        memory_key = _token_bytes(prefix)
        state = self._saved.get(memory_key)
        if state is not None:
            if _restore(llm, prefix, state):
                self._saved.move_to_end(memory_key)
                return PrefixUse(n, "memory", 0)
            del self._saved[memory_key]
        disk = ""
        if self.store is not None:
            found = self.store.load(self.context(llm), prefix)
            disk = found.status
            if found.state is not None:
                if _restore(llm, prefix, found.state):
                    self._remember(memory_key, found.state)
                    return PrefixUse(n, "disk", 0, disk)
                disk = "damaged"  # intact bytes llama.cpp would not take: read afresh and replace them
        evaluated = _evaluate(llm, prefix)
        state = _capture(llm)
        self._remember(memory_key, state)
        if self.store is not None:
            self.store.save(self.context(llm), prefix, state)
        return PrefixUse(n, "read", evaluated, disk)

    def prefix_tokens(self, llm, messages: Sequence[Message]) -> list[int]:
        """The tokens every prompt of this family starts with: the chat-formatted prompt up to its last message's text.

        Found as the common start of the prompt rendered with two different last texts, through the model's
        own chat handler, so it is right for any chat template.
        """
        if not messages:
            return []
        head, last = list(messages[:-1]), messages[-1]
        family = json.dumps([head, last.get("role")], sort_keys=True)
        prefix = self._prefixes.get(family)
        if prefix is None:
            try:
                one = prompt_tokens(llm, [*head, {**last, "content": "0"}])
                other = prompt_tokens(llm, [*head, {**last, "content": "1"}])
            except Exception as exc:  # noqa: BLE001 (any chat handler that cannot be driven this way: no snapshots, still correct)
                log.debug("no prompt prefix for this chat handler: %s", exc)
                one = other = []
            prefix = one[: common_length(one, other)]
            if len(self._prefixes) > 64:
                self._prefixes.clear()
            self._prefixes[family] = prefix
        return prefix

    def context(self, llm) -> dict:
        if self._context is None:
            self._context = state_context(llm)
        return self._context

    def _remember(self, key: bytes, state: bytes) -> None:
        self._saved[key] = state
        self._saved.move_to_end(key)
        while len(self._saved) > self.capacity:
            self._saved.popitem(last=False)

    def clear(self) -> None:
        """Forget the snapshots in memory (the disk cache stays): the state of a new process."""
        self._saved.clear()


class _PromptCapture:
    """Stands in for `Llama` in a chat handler call: keeps the prompt tokens instead of evaluating them."""

    def __init__(self, llm):
        self._llm = llm
        self.prompt: list[int] = []

    def __getattr__(self, name):
        return getattr(self._llm, name)

    def create_completion(self, prompt, **_):
        self.prompt = list(prompt)
        return iter(())


def prompt_tokens(llm, messages: Sequence[Message]) -> list[int]:
    """The token ids `Llama.create_chat_completion` would evaluate for these messages (handler chosen as it does)."""
    from llama_cpp import llama_chat_format

    handler = llm.chat_handler or llm._chat_handlers.get(llm.chat_format) or llama_chat_format.get_chat_completion_handler(llm.chat_format)
    capture = _PromptCapture(llm)
    handler(llama=capture, messages=list(messages), stream=True)  # the stream is never iterated
    return capture.prompt


def state_context(llm) -> dict:
    """Everything besides the model and the tokens that a saved KV state depends on (part of the disk key)."""
    import llama_cpp

    params = llm.context_params
    fields = {name: getattr(params, name) for name in CONTEXT_FIELDS if hasattr(params, name)}
    # The CPU's kernels (AVX2, AVX512, ...) round differently: a data folder moved to another machine reads afresh.
    system = hashlib.sha256(llama_cpp.llama_print_system_info()).hexdigest()[:16]
    return {"state": "seq0", "llama_cpp_python": llama_cpp.__version__, "system": system, "n_ctx": llm.n_ctx(), **fields}


def _evaluate(llm, prefix: list[int]) -> int:
    """Evaluate the prefix alone, reusing what the live cache already shares with it; returns tokens evaluated."""
    kept = common_length(llm.input_ids[: llm.n_tokens].tolist(), prefix)
    llm.n_tokens = kept  # eval() drops the cache from n_tokens on before decoding
    llm.eval(prefix[kept:])
    return len(prefix) - kept


def _capture(llm) -> bytes:
    import llama_cpp

    ctx = llm._ctx.ctx
    size = llama_cpp.llama_state_seq_get_size(ctx, 0)
    buffer = (ctypes.c_uint8 * size)()
    written = llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0)
    return ctypes.string_at(buffer, written)


def _restore(llm, prefix: list[int], state: bytes) -> bool:
    import llama_cpp

    buffer = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
    # llama.cpp first clears sequence 0, then takes the saved cells (or clears it again if it cannot).
    restored = llama_cpp.llama_state_seq_set_data(llm._ctx.ctx, buffer, len(state), 0) == len(state)
    n = len(prefix) if restored else 0
    llm.input_ids[:n] = prefix[:n]
    llm.n_tokens = n
    llm._requires_eval = True  # no live logits: generate() must decode at least one token before sampling
    return restored


def common_length(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _token_bytes(tokens: Sequence[int]) -> bytes:
    return b"".join(int(t).to_bytes(4, "little", signed=True) for t in tokens)
