"""Fill eval query caches with the model's queries, round robin over several sets, each in the order its nested
samples take questions (harness.sample_queries: the first k done of a set are its whole k-question sample).
One process, one model. The eval then replays them (same messages, same early stop). Prints counts only.

    python -m bench.warm_query_cache SAMPLE STYLE FOLDER=CACHE [FOLDER=CACHE ...]

Written when one query took 200-270 s under shared load: the caches fill while the eval library imports,
and any prefix of a set's questions is a whole nested sample the eval can score from the cache alone.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from desktop_app.core.library import Library
from desktop_app.core.retrieval.query_writing import write_queries
from desktop_app.evaluation import harness, variants  # noqa: F401  registers the research styles
from desktop_app.evaluation.query_cache import CachedGenerator


def main() -> None:
    sample, style = int(sys.argv[1]), sys.argv[2]
    library = Library(home=Path(tempfile.mkdtemp()))
    sets = []
    for pair in sys.argv[3:]:
        folder, cache_path = pair.split("=")
        beir = harness.load_beir(Path(folder))
        order = list(range(len(beir.queries)))
        random.Random(0).shuffle(order)  # as harness.sample_queries with seed 0
        sets.append((Path(folder), [beir.queries[i][1] for i in order[:sample]], CachedGenerator(library.generator, Path(cache_path), library.settings.model)))
    for k in range(sample):
        for folder, questions, cache in sets:
            if k < len(questions):
                write_queries(lambda cache=cache: cache, questions[k], library.settings, (style,))
        print(f"{k + 1}/{sample} of each set done", flush=True)


if __name__ == "__main__":
    main()
