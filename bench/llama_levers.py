"""llama.cpp settings on this CPU, side by side: how fast each reads a real answer prompt and writes the answer.

    python -m bench.llama_levers [--questions 4] [--repeats 2] [--levers base,flash_attn,...]

The answer prompts are the app's own: plain-RAG evidence over the R manuals (bench.answer_latency's
library and questions), built once with the answer stage's prompt code, then given to llama.cpp with each
lever as the window would (chat completion, streamed, greedy, 64 tokens at most). The levers' order rotates
from question to question, so a noisy neighbour hits all alike. The KV cache is cleared before each prompt
(llm.reset()): every lever reads the whole prompt, system prompt included, so prompt speeds compare directly.

Columns per lever: model load, prompt tokens per second, first token (seconds), generation tokens per second,
and the first answer's text when it differs from the base lever's (a lever must not change the answer).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from .answer_latency import QUESTIONS, open_library
from .common import RESULTS_DIR, median, table, write_results

GGML_TYPE_Q8_0 = 8  # llama.cpp's ggml_type for 8-bit blocks (llama_cpp.GGML_TYPE_Q8_0)


def lever_settings(name: str, cores: int) -> dict:
    """Keyword arguments for llama_cpp.Llama, per lever; "base" is the app's default."""
    base = {"n_ctx": 4096, "n_threads": cores, "n_threads_batch": cores, "n_batch": 512}
    levers = {
        "base": {},
        "ubatch_128": {"n_batch": 512, "n_ubatch": 128},
        "batch_256": {"n_batch": 256, "n_ubatch": 256},
        "flash_attn": {"flash_attn": True},
        "kv_q8_0": {"flash_attn": True, "type_k": GGML_TYPE_Q8_0, "type_v": GGML_TYPE_Q8_0},
        "gen_threads_1": {"n_threads": 1},
        "mlock": {"use_mlock": True},
        # llama-cpp-python sizes its logits buffer by `logits_all` while a draft model turns logits for every
        # token on; without logits_all=True a prompt over n_batch tokens fails (0.3.x).
        "prompt_lookup_2": {"draft": 2, "logits_all": True},
        "prompt_lookup_5": {"draft": 5, "logits_all": True},
        "model_0.5b": {"model": "qwen2.5-coder-0.5b"},
    }
    return {**base, **levers[name]}


class Recorder:
    """Stands in for the model while the prompts are built: keeps the answer messages, answers nothing."""

    def __init__(self):
        self.messages: list = []

    def stream(self, messages, *args, **kwargs):
        self.messages.append([dict(m) for m in messages])
        return iter(())


def answer_prompts(home: Path, questions: list[str]) -> list:
    from desktop_app.core.pipeline import Pipeline
    from desktop_app.core.settings import Settings

    library = open_library(home, Settings())
    recorder = Recorder()
    pipeline = Pipeline(library.store, library.index, library.embedder, lambda: recorder, library.settings, library.tables)
    for question in questions:
        for _ in pipeline.ask(question, "rag"):
            pass
    library.close()
    return recorder.messages


def load(name: str, cores: int):
    from llama_cpp import Llama
    from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

    from desktop_app.core.models.model_files import resolve_llm

    kwargs = lever_settings(name, cores)
    model = resolve_llm(kwargs.pop("model", None))
    draft = kwargs.pop("draft", 0)
    started = time.perf_counter()
    llm = Llama(model_path=str(model), draft_model=LlamaPromptLookupDecoding(num_pred_tokens=draft) if draft else None, verbose=False, **kwargs)
    return llm, time.perf_counter() - started


def run_prompt(llm, messages: list, max_tokens: int) -> dict:
    llm.reset()
    started = time.perf_counter()
    first, pieces = None, []
    for chunk in llm.create_chat_completion(messages=messages, max_tokens=max_tokens, temperature=0.0, top_k=1, stream=True):
        text = chunk["choices"][0].get("delta", {}).get("content")
        if text:
            first = first or time.perf_counter()
            pieces.append(text)
    end = time.perf_counter()
    answer = "".join(pieces)
    answer_tokens = len(llm.tokenize(answer.encode(), add_bos=False))
    prompt_tokens = llm.n_tokens - answer_tokens  # the chat template's tokens included; within a token or so
    first = first or end
    return {
        "prompt_tokens": prompt_tokens,
        "first_token_s": first - started,
        "prompt_tok_s": prompt_tokens / (first - started),
        "generation_tok_s": (answer_tokens - 1) / (end - first) if answer_tokens > 1 and end > first else 0.0,
        "answer_tokens": answer_tokens,
        "total_s": end - started,
        "answer": answer,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--home", type=Path, default=RESULTS_DIR / "home-r-manuals")
    parser.add_argument("--levers", default="base,ubatch_128,batch_256,flash_attn,kv_q8_0,gen_threads_1,mlock,prompt_lookup_2,prompt_lookup_5,model_0.5b")
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    prompts = answer_prompts(args.home, list(QUESTIONS[: args.questions]))
    levers = [name.strip() for name in args.levers.split(",") if name.strip()]
    runs, loads = [], {}
    for repeat in range(args.repeats):
        for i, messages in enumerate(prompts):
            shift = (i + repeat) % len(levers)
            for name in levers[shift:] + levers[:shift]:
                llm, loads[name] = load(name, cores)
                row = {"lever": name, "question_index": i, "repeat": repeat, "load_avg": os.getloadavg()[0], **run_prompt(llm, messages, args.max_tokens)}
                del llm
                runs.append(row)
                print(
                    f"  [{repeat}.{i}] {name:16s} first token {row['first_token_s']:5.2f}s prompt {row['prompt_tok_s']:6.1f} tok/s "
                    f"generation {row['generation_tok_s']:5.1f} tok/s load {row['load_avg']:.1f}",
                    flush=True,
                )

    base_answers = {(r["repeat"], r["question_index"]): r["answer"] for r in runs if r["lever"] == levers[0]}
    rows = []
    for name in levers:
        mine = [r for r in runs if r["lever"] == name]
        same = sum(r["answer"] == base_answers.get((r["repeat"], r["question_index"])) for r in mine)
        rows.append(
            (
                name,
                loads[name],
                median([r["prompt_tokens"] for r in mine]),
                median([r["prompt_tok_s"] for r in mine]),
                median([r["first_token_s"] for r in mine]),
                median([r["generation_tok_s"] for r in mine]),
                median([r["total_s"] for r in mine]),
                f"{same}/{len(mine)}",
            )
        )
    print()
    print(
        f"llama.cpp levers: {len(prompts)} answer prompts x {args.repeats} repeats, {cores} threads unless the lever says otherwise "
        f"(medians; load average {os.getloadavg()[0]:.1f} at the end: above ~2.5 the machine was shared)"
    )
    print(table(("lever", "load_s", "prompt_tok", "prompt_tok/s", "first_token_s", "gen_tok/s", "total_s", f"same answer as {levers[0]}"), rows))
    path = write_results("llama_levers", {"levers": {n: lever_settings(n, cores) for n in levers}, "table": rows, "runs": runs})
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
