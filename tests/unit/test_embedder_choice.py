"""Which embedder a library gets: the bundled ONNX one by default, a catalog name, or a sentence-transformers folder."""

from __future__ import annotations

import json

import pytest

from desktop_app.core.errors import ModelError
from desktop_app.core.library import Library
from desktop_app.core.models.catalog import load_catalog
from desktop_app.core.models.embedder import SentenceTransformerEmbedder, sentence_transformers_dimension
from desktop_app.core.models.model_files import open_embedder
from desktop_app.core.models.onnx_embedder import OnnxEmbedder
from desktop_app.core.settings import Settings
from tests.fakes import ScriptedGenerator


def test_the_default_embedder_is_the_bundled_onnx_model_and_its_files_are_installed():
    catalog = load_catalog()
    embedder = open_embedder("", catalog)
    assert isinstance(embedder, OnnxEmbedder)
    assert embedder.name == catalog.default_embedder and embedder.dimension == 384
    assert embedder.model_file.is_file() and embedder.tokenizer_file.is_file()


def test_the_index_records_the_backend_so_switching_it_is_noticed(data_home):
    """The vectors of the PyTorch and the ONNX MiniLM differ slightly: each is recorded under its own name."""
    bundled = Library(data_home, generator=ScriptedGenerator())
    assert bundled.index.state.model == "all-minilm-l6-v2-int8"
    bundled.close()
    torch = Library(data_home, settings=Settings(embedder="all-minilm-l6-v2"), generator=ScriptedGenerator())
    assert torch.index.state.model == "all-minilm-l6-v2" and isinstance(torch.embedder, SentenceTransformerEmbedder)
    torch.close()


def test_an_unknown_embedder_says_what_to_choose(data_home):
    with pytest.raises(ModelError) as info:
        Library(data_home, settings=Settings(embedder="no-such-model"), generator=ScriptedGenerator())
    assert "all-minilm-l6-v2-int8" in info.value.user_message()


def sentence_transformers_folder(root, modules, configs, hidden=384):
    root.mkdir()
    (root / "config.json").write_text(json.dumps({"hidden_size": hidden}))
    (root / "modules.json").write_text(json.dumps(modules))
    for path, config in configs.items():
        (root / path).mkdir()
        (root / path / "config.json").write_text(json.dumps(config))
    return root


def test_a_users_sentence_transformers_folder_is_opened_with_its_own_vector_size_without_loading_it(tmp_path):
    folder = sentence_transformers_folder(
        tmp_path / "my-model",
        [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
         {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
         {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}],
        {"1_Pooling": {"word_embedding_dimension": 768}, "2_Dense": {"in_features": 768, "out_features": 256}},
        hidden=768,
    )  # fmt: skip
    embedder = open_embedder(str(folder))
    assert isinstance(embedder, SentenceTransformerEmbedder) and not embedder.loaded
    assert embedder.dimension == 256
    assert embedder.name == f"sentence-transformers:{folder.resolve()}"  # another folder is another vector set


def test_a_folder_that_is_not_a_sentence_transformers_model_is_refused(tmp_path):
    (tmp_path / "photos").mkdir()
    with pytest.raises(ModelError, match="not a sentence-transformers model folder"):
        sentence_transformers_dimension(tmp_path / "photos")
    with pytest.raises(ModelError):
        open_embedder(str(tmp_path / "photos"))


def test_without_sentence_transformers_installed_its_embedder_says_how_to_get_it(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_sentence_transformers(name, *args, **kwargs):
        if name.startswith("sentence_transformers"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_sentence_transformers)
    embedder = SentenceTransformerEmbedder(tmp_path, "mine", 384)
    with pytest.raises(ModelError) as info:
        embedder.embed(["text"])
    assert "sentence-transformers" in info.value.user_message() and "bundled embedder" in info.value.user_message()
