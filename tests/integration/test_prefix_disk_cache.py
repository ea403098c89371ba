"""A new process (a CLI call, the window after a restart) loads the prompts' fixed prefixes from disk instead of reading them.

Counted in tokens llama.cpp evaluates, with the real default model; each test writes its cache into its own data folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from desktop_app.core.answers import prompts
from desktop_app.core.library import Library
from desktop_app.core.models.llm import LlamaGenerator
from desktop_app.core.models.model_files import resolve_llm
from desktop_app.core.retrieval.query_styles import query_messages
from tests.token_counting import as_if_restarted, tokens_read

pytestmark = pytest.mark.integration

QUESTION = "Which rivers flow through Vienna and Budapest?"


def query_prompt(question=QUESTION):
    return query_messages(question, 4)


def cache_files(data_home: Path) -> list[Path]:
    return sorted((data_home / "prefix-cache").glob("*.kv"))


def test_a_new_process_reads_only_the_question_and_writes_what_a_fresh_read_writes(real_generator, default_model_path, data_home):
    as_if_restarted(real_generator)
    fresh_reply, fresh_read = tokens_read(real_generator, query_prompt())  # reads the instructions, saves them
    prefix = real_generator.prefix_uses[-1].prefix_tokens
    assert prefix > 150 and len(cache_files(data_home)) == 1

    new_process = LlamaGenerator(default_model_path, n_ctx=real_generator.n_ctx)
    try:
        reply, read = tokens_read(new_process, query_prompt())
    finally:
        new_process.load().close()

    # The same reply (temperature 0), for exactly the ~200 prefix tokens fewer: only the question and reply were read.
    assert reply == fresh_reply
    assert read == fresh_read - prefix


def test_another_model_reads_its_own_prompt_and_leaves_the_default_models_cache_alone(real_generator, data_home):
    as_if_restarted(real_generator)
    tokens_read(real_generator, query_prompt(), max_tokens=4)
    [default_cache] = cache_files(data_home)

    tiny = LlamaGenerator(resolve_llm("smollm2-135m"), n_ctx=real_generator.n_ctx)  # Settings > model, then ask
    try:
        tokens_read(tiny, query_prompt(), max_tokens=4)
    finally:
        tiny.load().close()
    use = tiny.prefix_uses[-1]
    assert (use.source, use.evaluated) == ("read", use.prefix_tokens) and use.prefix_tokens > 100
    assert len(cache_files(data_home)) == 2 and default_cache.exists()

    as_if_restarted(real_generator)  # and back to the default model after a restart: its own cache still serves
    tokens_read(real_generator, query_prompt(), max_tokens=4)
    assert (real_generator.prefix_uses[-1].source, real_generator.prefix_uses[-1].evaluated) == ("disk", 0)


def other_bytes_same_name_and_size(model: Path, folder: Path) -> Path:
    """A copy of the GGUF with one letter of its name metadata changed: same tokenizer, shapes, size and file name."""
    data = bytearray(model.read_bytes())
    at = data.index(b"general.name") + len(b"general.name") + 4 + 8  # after the value's type and length
    data[at] ^= 0x20  # flips the case of the name's first letter
    copy = folder / model.name
    copy.parent.mkdir(parents=True)
    copy.write_bytes(bytes(data))
    return copy


def test_a_model_file_with_other_bytes_does_not_use_the_cache_of_one_with_the_same_name_and_size(tmp_path, data_home):
    original = resolve_llm("smollm2-135m")
    first = LlamaGenerator(original, n_ctx=2048)
    copy = LlamaGenerator(other_bytes_same_name_and_size(original, tmp_path / "other"), n_ctx=2048)
    again = LlamaGenerator(original, n_ctx=2048)
    try:
        tokens_read(first, query_prompt(), max_tokens=4)
        tokens_read(copy, query_prompt(), max_tokens=4)
        tokens_read(again, query_prompt(), max_tokens=4)
    finally:
        for generator in (first, copy, again):
            generator.load().close()

    assert first.prefix_uses[-1].prefix_tokens == copy.prefix_uses[-1].prefix_tokens  # the same prompt tokens ...
    assert (copy.prefix_uses[-1].source, copy.prefix_uses[-1].disk) == ("read", "missing")  # ... but not its cache
    assert len(cache_files(data_home)) == 2
    assert again.prefix_uses[-1].source == "disk"  # the original's own cache is still there and used


@pytest.mark.parametrize("damage", ["truncated", "overwritten with garbage", "payload byte flipped"])
def test_a_damaged_cache_file_is_noticed_read_afresh_and_rewritten(real_generator, data_home, damage):
    messages = prompts.answer_messages(QUESTION, [])  # the answer prompt: a shorter prefix than the query prompt
    as_if_restarted(real_generator)
    tokens_read(real_generator, messages, max_tokens=4)
    [cache] = cache_files(data_home)
    intact = cache.read_bytes()
    data = bytearray(intact)
    if damage == "truncated":
        del data[len(data) // 3 :]
    elif damage == "overwritten with garbage":
        data[:] = bytes(range(256)) * (len(data) // 256)
    else:
        data[-1000] ^= 0x40
    cache.write_bytes(bytes(data))

    as_if_restarted(real_generator)
    tokens_read(real_generator, messages, max_tokens=4)
    use = real_generator.prefix_uses[-1]
    assert (use.disk, use.source, use.evaluated) == ("damaged", "read", use.prefix_tokens)
    assert cache.read_bytes() == intact  # rewritten: the same prefix gives the same state, byte for byte

    as_if_restarted(real_generator)
    tokens_read(real_generator, messages, max_tokens=4)
    assert (real_generator.prefix_uses[-1].source, real_generator.prefix_uses[-1].evaluated) == ("disk", 0)


def test_the_windows_first_question_after_a_restart_reads_no_prompt_prefix(real_generator, real_embedder, data_home, tmp_path):
    notes = tmp_path / "rivers.md"
    notes.write_text("# Rivers\n\nThe Danube flows through Vienna and Budapest. The Seine flows through Paris.\n")
    library = Library(data_home, embedder=real_embedder, generator=real_generator)
    try:
        assert [e.stage for e in library.import_paths([notes]) if e.stage in ("ready", "failed")] == ["ready"]
        as_if_restarted(real_generator)
        library.pipeline().warm_up()  # the window's first start: reads the prompts' instructions and saves them
        assert {u.source for u in list(real_generator.prefix_uses)[-2:]} == {"read"}

        as_if_restarted(real_generator)  # the window opens again
        seen = len(real_generator.prefix_uses)
        library.pipeline().warm_up()
        warm_up = list(real_generator.prefix_uses)[seen:]
        for _ in library.ask(QUESTION, "fusion"):
            pass
        asked = list(real_generator.prefix_uses)[seen + len(warm_up) :]
    finally:
        library.close()

    assert warm_up and {u.source for u in warm_up} == {"disk"}
    # The query prompt, the answer prompt and the answer's question check, each with its instructions already in
    # place: every call of the question reads only its own text.
    assert len(asked) >= 3 and all(u.prefix_tokens > 0 for u in asked)
    assert sum(u.evaluated for u in warm_up + asked) == 0


def test_models_prepare_saves_the_prompts_for_later_processes(real_generator, real_embedder, data_home):
    library = Library(data_home, embedder=real_embedder, generator=real_generator)
    try:
        as_if_restarted(real_generator)
        shutil.rmtree(data_home / "prefix-cache", ignore_errors=True)
        first = library.warm_prompt_prefixes()
        as_if_restarted(real_generator)
        second = library.warm_prompt_prefixes()
    finally:
        library.close()
    assert "4 read and saved, 0 already saved" in first  # the query, answer, question-check and claim-check prompts
    assert "0 read and saved, 4 already saved" in second
    assert len(cache_files(data_home)) == 4
