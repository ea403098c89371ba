"""The user's settings apart from the research knobs: each explained in a sentence, old files still load."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys

import pytest

from desktop_app.core.errors import AppError
from desktop_app.core.modes import REGISTRY, mode_named
from desktop_app.core.settings import MODES, SETTING_HELP, Settings, load_settings, save_settings, setting_names

JARGON = re.compile(r"\b(RRF|GGUF|FTS5?|KV|hnsw\w*|embedding|CrossEncoder|bm25|cosine|LLM|RAG)\b", re.IGNORECASE)


def test_every_setting_has_one_plain_sentence_of_help():
    names = [f.name for f in dataclasses.fields(Settings)]
    assert list(SETTING_HELP) == names  # none missing, none left over, in the dialog's order
    for name, help_ in SETTING_HELP.items():
        text = help_.text
        assert text[0].isupper() and text.endswith("."), name
        assert not re.search(r"[.!?] [A-Z]", text), f"{name}: one sentence"
        assert not JARGON.search(text), f"{name}: {JARGON.search(text).group(0)}"


def test_the_plain_section_holds_what_a_user_understands_and_the_rest_is_advanced():
    plain = setting_names(in_advanced=False)
    assert {"model", "mode", "n_queries", "top_k", "temperature", "llm_backend", "llm_url"} <= set(plain)
    assert {"rrf_k", "question_weight", "keyword_weight", "list_depth", "n_batch", "sql_row_cap"} <= set(setting_names(in_advanced=True))
    assert sorted(plain + setting_names(in_advanced=True)) == sorted(setting_names())


def test_research_knobs_are_not_settings():
    fields = {f.name for f in dataclasses.fields(Settings)}
    for knob in ("query_style", "extra_query_style", "entity_round", "entity_passages", "fusion_method", "keyword_source", "confident_similarity"):
        assert knob not in fields


def test_settings_saved_by_an_older_version_load_without_their_research_knobs(data_home):
    data_home.mkdir(parents=True, exist_ok=True)
    old = {"top_k": 7, "rrf_k": 5.0, "query_style": "names", "extra_query_style": "enumerate", "entity_round": 4,
           "fusion_method": "interleave", "keyword_source": "question", "confident_similarity": 0.7, "mode": "multi-query"}
    (data_home / "settings.json").write_text(json.dumps(old))
    settings = load_settings(data_home)
    assert (settings.top_k, settings.rrf_k, settings.mode) == (7, 5.0, "multi-query")
    save_settings(data_home, settings)
    assert "query_style" not in json.loads((data_home / "settings.json").read_text())


def test_every_mode_a_user_can_choose_is_a_registered_strategy():
    assert set(MODES) <= set(REGISTRY)
    assert mode_named("naive-fusion").settings_for(Settings()).rrf_k == 60.0  # the paper's recipe, whatever the user's k
    assert mode_named("fusion").settings_for(Settings(rrf_k=7.0)).rrf_k == 7.0
    with pytest.raises(AppError, match="no mode called 'fusoin'") as caught:
        mode_named("fusoin")
    assert "fusion" in caught.value.user_message()


def test_the_core_never_imports_the_eval_harness_and_knows_only_the_apps_modes():
    code = (
        "import sys; import desktop_app.core.library, desktop_app.core.pipeline\n"
        "from desktop_app.core.modes import REGISTRY\n"
        "from desktop_app.core.retrieval.query_styles import QUERY_STYLES\n"
        "assert not [m for m in sys.modules if m.startswith('desktop_app.evaluation')]\n"
        "print(','.join(REGISTRY)); print(','.join(QUERY_STYLES))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == [",".join(MODES), "shared-fact,naive"]


def test_one_bad_value_keeps_the_good_ones_is_reported_and_the_users_file_is_kept(data_home, capsys):
    from desktop_app.cli.session import print_notices
    from desktop_app.core.library import Library
    from desktop_app.core.settings import read_settings
    from tests.fakes import HashingEmbedder, ScriptedGenerator

    data_home.mkdir(parents=True, exist_ok=True)
    users = {"top_k": 7, "rrf_k": 5, "n_queries": "four", "mode": "fusoin", "general_knowledge": True, "temperature": True}
    text = json.dumps(users)
    (data_home / "settings.json").write_text(text)

    loaded = read_settings(data_home)
    s = loaded.settings
    assert (s.top_k, s.rrf_k, s.general_knowledge) == (7, 5.0, True)  # the good values are kept
    assert (s.n_queries, s.mode, s.temperature) == (Settings().n_queries, Settings().mode, Settings().temperature)
    assert [p.split(" = ")[0] for p in loaded.problems] == ["n_queries", "mode", "temperature"]

    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert library.settings.top_k == 7
    print_notices(library)  # what the CLI prints; the window shows the same notices in its status bar
    err = capsys.readouterr().err
    assert "n_queries" in err and '"fusoin"' in err and "settings.json" in err
    assert (data_home / "settings.json").read_text() == text  # reading never writes

    library.update_settings(library.settings.replace(mode="rag"))  # e.g. the window's mode menu
    assert (data_home / "settings.json.bak").read_text() == text  # the user's file is kept before it is replaced
    saved = json.loads((data_home / "settings.json").read_text())
    assert (saved["top_k"], saved["rrf_k"], saved["mode"]) == (7, 5.0, "rag")
    library.close()


def test_an_unreadable_settings_file_is_reported_not_silently_reset(data_home):
    from desktop_app.core.settings import read_settings

    data_home.mkdir(parents=True, exist_ok=True)
    (data_home / "settings.json").write_text('{"top_k": 7,')
    loaded = read_settings(data_home)
    assert loaded.settings == Settings() and "cannot be read" in loaded.notice()
    save_settings(data_home, loaded.settings)
    assert (data_home / "settings.json.bak").read_text() == '{"top_k": 7,'


def test_servers_chosen_in_settings_are_still_chosen_after_a_restart(data_home):
    """The backend comes before its address in the file: it is checked again once the address is read."""
    from desktop_app.core.settings import read_settings, save_settings

    data_home.mkdir(parents=True, exist_ok=True)
    chosen = Settings(llm_backend="http", llm_url="http://127.0.0.1:8000/v1", embedder_backend="http", embed_url="http://127.0.0.1:8080/v1")
    save_settings(data_home, chosen)
    loaded = read_settings(data_home)
    assert loaded.problems == ()
    assert loaded.settings == chosen
