"""Counting the tokens llama.cpp evaluates for a call: how the prompt-prefix tests see what was read again."""

from __future__ import annotations


def tokens_read(generator, messages, max_tokens=24):
    """Runs one prompt; returns the reply and how many prompt/reply tokens llama.cpp had to evaluate."""
    llm = generator.load()
    evaluated = []
    original = llm.eval

    def counting_eval(tokens):
        evaluated.append(len(tokens))
        return original(tokens)

    llm.eval = counting_eval
    try:
        reply = generator.complete(messages, max_tokens=max_tokens)
    finally:
        del llm.eval
    return reply, sum(evaluated)


def as_if_restarted(generator) -> None:
    """The state a new process's model starts in: no prompt snapshots in memory and an empty KV cache."""
    generator._snapshots.clear()
    generator.forget_context()
