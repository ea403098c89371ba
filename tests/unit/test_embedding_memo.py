"""The pipeline's embedding memo: an answer's review does not embed again the sentences the evidence stage embedded."""

from __future__ import annotations

from collections import Counter

import numpy as np

from desktop_app.core.events import AnswerDone
from desktop_app.core.library import Library
from desktop_app.core.models.embedding_memo import EmbeddingMemo
from desktop_app.sample_datasheet import write_sample_datasheet
from tests.fakes import HashingEmbedder, ScriptedGenerator


class RecordingEmbedder(HashingEmbedder):
    def __init__(self):
        super().__init__()
        self.texts: Counter[str] = Counter()

    def embed(self, texts):
        self.texts.update(" ".join(t.split()) for t in texts)
        return super().embed(texts)


def test_the_memo_gives_the_embedders_vectors_and_embeds_each_text_once():
    inner = RecordingEmbedder()
    memo = EmbeddingMemo(inner, capacity=3)
    first = memo.embed(["The pump weighs 12 kg.", "It runs at 6 bar."])
    again = memo.embed(["It runs  at\n6 bar.", "The pump weighs 12 kg.", "A new sentence."])
    assert np.allclose(first, inner.embed(["The pump weighs 12 kg.", "It runs at 6 bar."]))
    assert np.allclose(again[:2], first[::-1])
    assert inner.texts["It runs at 6 bar."] == 2 and inner.texts["A new sentence."] == 1  # once by the memo, once by the check above
    memo.embed(["Another one.", "And one more."])  # the capacity is 3: the oldest are dropped
    memo.embed(["The pump weighs 12 kg."])
    assert inner.texts["The pump weighs 12 kg."] == 3
    assert memo.embed([]).shape == (0, inner.dimension)


def test_an_answers_review_does_not_embed_again_what_the_evidence_stage_embedded(data_home, tmp_path):
    embedder, generator = RecordingEmbedder(), ScriptedGenerator()
    library = Library(data_home, embedder=embedder, generator=generator)
    try:
        list(library.import_paths([write_sample_datasheet(tmp_path / "px40.pdf")]))
        embedder.texts.clear()
        generator.enqueue("PX-40: maximum temperature; IP rating", "The PX-40 runs up to 85 degrees Celsius [1]. It is rated IP67 [2].")
        done = [e for e in library.ask("What is the maximum temperature of the PX-40?", "fusion") if isinstance(e, AnswerDone)]
        assert done and done[0].result.found
        assert len(embedder.texts) > 5, "the evidence stage and the review embedded sentences"
        assert [t for t, n in embedder.texts.items() if n > 1] == []
    finally:
        library.close()
