"""The bundled int8 ONNX MiniLM stands in for MiniLM on PyTorch: same vectors to within int8 rounding, same passages found.

The retrieval comparison on the dev sets is in the README (desktop-app-cli eval, one data folder per backend).
"""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.core.models.model_files import open_embedder

pytestmark = pytest.mark.integration

PASSAGES = [
    "Install a package from a local source tarball with R CMD INSTALL followed by the file name.",
    "The garbage collector reclaims memory that no variable refers to any more.",
    "Lists may hold elements of different types, and are indexed with double square brackets.",
    "The warranty covers defects in materials for two years from the date of purchase.",
    "Set the environment variable LANG to choose the language of messages.",
    "Factors store categorical data as integer codes with a set of labels called levels.",
    "Der Motor ist bürstenlos und gegen Verpolung geschützt.",  # not English: the tokenizer must agree too
    "Matrices are filled column by column unless byrow = TRUE is given.",
    "x <- c(1, 2, 3); mean(x)  # 2",
    "A very long passage " + "that repeats itself past the model's token limit " * 40,
]
QUESTIONS = {
    "How do I install an R package from a tarball?": 0,
    "What frees unused memory?": 1,
    "How are categorical variables stored?": 5,
    "How long is the guarantee?": 3,
}


@pytest.fixture(scope="module")
def torch_embedder():
    pytest.importorskip("sentence_transformers", reason="the sentence-transformers extra (make installs it)")
    embedder = open_embedder("all-minilm-l6-v2")
    embedder.load()
    return embedder


def test_the_onnx_vectors_match_the_pytorch_vectors(real_embedder, torch_embedder):
    assert real_embedder.name == "all-minilm-l6-v2-int8"  # the default the app bundles
    onnx, torch = real_embedder.embed(PASSAGES), torch_embedder.embed(PASSAGES)
    assert onnx.shape == torch.shape == (len(PASSAGES), 384)
    assert np.allclose(np.linalg.norm(onnx, axis=1), 1.0, atol=1e-4)
    assert (onnx * torch).sum(axis=1).min() > 0.99


def test_the_same_passage_answers_each_question_with_either_backend(real_embedder, torch_embedder):
    for embedder in (real_embedder, torch_embedder):
        scores = embedder.embed(list(QUESTIONS)) @ embedder.embed(PASSAGES).T
        assert list(scores.argmax(axis=1)) == list(QUESTIONS.values()), embedder.name


def test_a_batch_gives_each_text_the_vector_it_gets_alone(real_embedder):
    """Texts are sorted by length and padded per batch; padding must not move a vector."""
    together = real_embedder.embed(PASSAGES)
    alone = np.vstack([real_embedder.embed([p]) for p in PASSAGES])
    assert np.allclose(together, alone, atol=1e-4)


def test_a_passage_typeset_with_ligatures_gets_the_vector_of_its_plain_letters(real_embedder):
    # A PDF's text keeps "ﬁ" and "ﬂ" as one character each; the tokenizer read "ﬁlter" as "ﬁ" and "##lter".
    typeset, plain = real_embedder.embed(["Clean the ﬁlter of the air ﬂow sensor.", "Clean the filter of the air flow sensor."])
    assert float(typeset @ plain) > 0.9999
