"""The local LLM (llama.cpp through llama-cpp-python). One small interface: `stream` chat messages.

llama.cpp objects are not thread-safe, so every call holds the model's lock for its whole run.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..errors import ModelError
from .prefix_snapshots import PrefixSnapshots, PrefixUse, common_length, prompt_tokens
from .prefix_store import PrefixStore

if TYPE_CHECKING:
    from ..settings import Settings

Message = dict[str, str]

# Diagnostics: when set, each call appends how it got its prompt prefix (a JSON line) to this file.
# The latency benchmark reads it from the CLI processes it starts.
PREFIX_LOG_ENV = "DESKTOP_APP_PREFIX_LOG"


class Generator(Protocol):
    name: str

    def stream(self, messages: Sequence[Message], max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> Iterator[str]:
        ...

    def warm_up(self, messages: Sequence[Message]) -> None:
        """Evaluate a prompt once so its prefix sits in the KV cache for the next call (one token generated)."""
        for _ in self.stream(messages, max_tokens=1):
            pass

    def complete(self, messages: Sequence[Message], max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> str:
        ...

    def count_tokens(self, text: str) -> int:
        ...

    def reply_odds(self, messages: Sequence[Message], words: Sequence[str]) -> dict[str, float] | None:
        """How likely the reply is to start with each word (any case, with or without a leading space), read from the
        model's next-token probabilities. None: this backend cannot tell (callers then read a reply instead)."""
        return None


def default_threads() -> int:
    return max(1, os.cpu_count() or 1)


class LlamaGenerator:
    def __init__(
        self,
        model_path: Path,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        seed: int = 42,
        n_threads_batch: int | None = None,
        n_batch: int = 512,
        use_mmap: bool = True,
        prompt_lookup_tokens: int = 0,
        prefix_cache_dir: Path | None = None,
        persist_prefixes: bool = True,
    ):
        """`prefix_cache_dir`: where prompt-prefix KV states are kept between processes (None: the data
        folder's prefix-cache/); `persist_prefixes=False` keeps them in memory only."""
        self.model_path = Path(model_path)
        self.name = self.model_path.name
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()
        self.n_threads_batch = n_threads_batch or self.n_threads
        self.n_batch = n_batch
        self.use_mmap = use_mmap
        self.prompt_lookup_tokens = prompt_lookup_tokens
        self.seed = seed
        self._llm = None
        self._lock = threading.RLock()
        self._snapshots = PrefixSnapshots(PrefixStore(self.model_path, prefix_cache_dir) if persist_prefixes else None)
        self.prefix_uses: deque[PrefixUse] = deque(maxlen=200)  # the latest calls, newest last

    def load(self):
        with self._lock:
            if self._llm is None:
                try:
                    from llama_cpp import Llama

                    draft = None
                    if self.prompt_lookup_tokens > 0:
                        # Answers quote their passages; drafting the continuation from the prompt's own
                        # n-grams lets llama.cpp verify several tokens in one batch.
                        from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

                        draft = LlamaPromptLookupDecoding(num_pred_tokens=self.prompt_lookup_tokens)
                    self._llm = Llama(
                        model_path=str(self.model_path),
                        n_ctx=self.n_ctx,
                        n_threads=self.n_threads,
                        n_threads_batch=self.n_threads_batch,
                        n_batch=self.n_batch,
                        use_mmap=self.use_mmap,
                        draft_model=draft,
                        # llama-cpp-python (0.3.x) turns logits for every token on for a draft model but sizes its
                        # logits buffer by this flag: without it a prompt longer than n_batch fails.
                        logits_all=draft is not None,
                        seed=self.seed,
                        verbose=False,
                    )
                except Exception as exc:
                    raise ModelError(
                        f"The model {self.model_path.name} could not be loaded ({exc})",
                        hint="Pick another GGUF file in Settings, or check that this one is a complete llama.cpp model.",
                    ) from exc
        return self._llm

    @classmethod
    def from_settings(cls, model_path: Path, settings: Settings, prefix_cache_dir: Path | None = None) -> LlamaGenerator:
        """The local model as the settings run it (0 threads: all the cores)."""
        s = settings
        return cls(
            model_path, n_ctx=s.n_ctx, n_threads=s.n_threads or None, n_threads_batch=s.n_threads_batch or None, n_batch=s.n_batch,
            use_mmap=s.use_mmap, prompt_lookup_tokens=s.prompt_lookup_tokens, prefix_cache_dir=prefix_cache_dir,
        )

    @property
    def loaded(self) -> bool:
        return self._llm is not None

    def count_tokens(self, text: str) -> int:
        llm = self.load()
        with self._lock:
            return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def stream(self, messages: Sequence[Message], max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> Iterator[str]:
        llm = self.load()
        with self._lock:
            self._note(self._snapshots.prepare(llm, messages))
            chunks = llm.create_chat_completion(
                messages=list(messages),
                max_tokens=max_tokens,
                temperature=temperature,
                top_k=40 if temperature > 0 else 1,
                stop=list(stop) or None,
                stream=True,
            )
            try:
                for chunk in chunks:
                    delta = chunk["choices"][0].get("delta", {})
                    text = delta.get("content")
                    if text:
                        yield text
            finally:
                # Closing the stream stops generation at once (the Stop button relies on this).
                close = getattr(chunks, "close", None)
                if close:
                    close()

    def reply_odds(self, messages: Sequence[Message], words: Sequence[str]) -> dict[str, float] | None:
        llm = self.load()
        with self._lock:
            self._note(use := self._snapshots.prepare(llm, messages))
            prompt = prompt_tokens(llm, messages)
            if not prompt:
                return None
            # Read all after the fixed prefix, however much more the last call shared: odds read on top of another
            # call's tokens differ in the last digits, enough to move a check sitting at its line (same inputs, same odds).
            kept = min(common_length(llm.input_ids[: llm.n_tokens].tolist(), prompt), use.prefix_tokens, len(prompt) - 1)
            llm.n_tokens = kept
            llm.eval(prompt[kept:])
            logits = _last_logits(llm)
            spellings = {word: _word_tokens(llm, word) for word in words}
        import numpy as np

        odds = np.exp(logits - logits.max())
        odds /= odds.sum()
        return {word: float(sum(odds[t] for t in tokens)) for word, tokens in spellings.items()}

    def warm_up(self, messages: Sequence[Message]) -> None:
        """Get this prompt's fixed prefix ready for the next call: loaded from the disk cache, or read once and saved."""
        llm = self.load()
        with self._lock:
            self._note(self._snapshots.prepare(llm, messages))

    def _note(self, use: PrefixUse) -> None:
        self.prefix_uses.append(use)
        log_file = os.environ.get(PREFIX_LOG_ENV)
        if log_file and use.prefix_tokens:
            try:
                with open(log_file, "a") as f:
                    f.write(json.dumps({"model": self.name, **dataclasses.asdict(use)}) + "\n")
            except OSError:
                pass

    def complete(self, messages: Sequence[Message], max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> str:
        return "".join(self.stream(messages, max_tokens, temperature, stop))

    def forget_context(self) -> None:
        """Drop the live KV cache but keep the prompt-prefix snapshots: the state a new, unrelated question meets.

        Benchmarks call this between runs, so a question answered twice in a row (plain RAG, then
        RAG-Fusion) does not get the first run's passages for free.
        """
        with self._lock:
            if self._llm is not None:
                self._llm.reset()


def _last_logits(llm):
    import llama_cpp
    import numpy as np

    pointer = llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1)  # the last token read, whatever logits_all says
    return np.ctypeslib.as_array(pointer, shape=(llm.n_vocab(),)).astype(np.float64)


def _word_tokens(llm, word: str) -> set[int]:
    """The single tokens that spell the word: lower, Capitalised or UPPER, with or without a leading space."""
    forms = {f"{space}{case}" for space in ("", " ") for case in (word.lower(), word.capitalize(), word.upper())}
    spelled = (llm.tokenize(form.encode("utf-8"), add_bos=False, special=False) for form in forms)
    return {ids[0] for ids in spelled if len(ids) == 1}
