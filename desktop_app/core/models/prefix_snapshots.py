"""KV-cache snapshots of each prompt family's fixed prefix, so alternating prompts do not re-read their instructions."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

Message = dict[str, str]


def prompt_family(messages: Sequence[Message]) -> str | None:
    """Prompts that share a system message share their fixed prefix (instructions and worked examples)."""
    if messages and messages[0].get("role") == "system":
        return messages[0].get("content", "")
    return None


class PrefixSnapshots:
    """Keeps the KV cache of each prompt family so alternating families do not re-read their fixed prefix.

    llama.cpp keeps one KV cache and llama-cpp-python reuses its longest common prefix with the next
    prompt. RAG-Fusion alternates two prompts (write queries, then answer), so each question would
    re-read the ~300-token few-shot query prompt (about 5 s on 2 cores). We snapshot the cache after
    a family's first call and restore it when that family comes back after another one; the prefix
    match then keeps the shared instructions and drops the old question. Only llama.cpp's state and
    the token ids are copied: `Llama.save_state` also copies a 300 MB logits array we do not use.
    """

    def __init__(self, capacity: int = 4):
        self.capacity = capacity
        self._saved: OrderedDict[str, tuple[bytes, object, int]] = OrderedDict()
        self._current: str | None = None

    def before(self, llm, family: str | None) -> None:
        if family is None or family == self._current or family not in self._saved:
            return
        import ctypes

        import llama_cpp

        data, token_ids, n_tokens = self._saved[family]
        buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
        if llama_cpp.llama_state_set_data(llm._ctx.ctx, buffer, len(data)) != len(data):
            del self._saved[family]  # a state this context cannot take: read the prompt afresh
            llm.reset()
            return
        llm.input_ids[:n_tokens] = token_ids
        llm.n_tokens = n_tokens
        llm._requires_eval = True  # the restored logits are not a live decode: re-read the last token
        self._saved.move_to_end(family)

    def after(self, llm, family: str | None) -> None:
        self._current = family
        if family is None or family in self._saved or llm.n_tokens == 0:
            return
        import ctypes

        import llama_cpp

        size = llama_cpp.llama_state_get_size(llm._ctx.ctx)
        buffer = (ctypes.c_uint8 * int(size))()
        written = int(llama_cpp.llama_state_get_data(llm._ctx.ctx, buffer, size))
        self._saved[family] = (bytes(buffer)[:written], llm.input_ids[: llm.n_tokens].copy(), llm.n_tokens)
        while len(self._saved) > self.capacity:
            self._saved.popitem(last=False)

    def forget_current(self) -> None:
        self._current = None  # the live cache no longer holds any family's prompt: restore on the next call

    def clear(self) -> None:
        self._saved.clear()
        self._current = None
