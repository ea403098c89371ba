"""Query generation alone (the stage fusion adds): levers on vs off, interleaved, same model.

    python -m bench.query_generation [--questions 3] [--n-queries 4]

"early-stop": reading stops once enough queries are complete, with a tight token cap (the app's
default). "no-early-stop": the engine before issue 5, up to ~24n+16 new tokens. (A third lever,
sharing the answer's system prompt for its KV cache, measured slower and was removed.) Before each call
the KV cache holds a previous question's answer prompt, as it does in a running app.
"""

from __future__ import annotations

import argparse
import os
import time

from .answer_latency import QUESTIONS
from .common import median, table, write_results

VARIANTS = {
    # The shared-system-prompt lever lost (the model numbered its queries like citations) and was removed.
    "early-stop": {"query_early_stop": True},
    "no-early-stop": {"query_early_stop": False, "query_tokens_each": 27},  # 27*4+8 ~ the old 24*4+16
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--n-queries", type=int, default=4)
    args = parser.parse_args(argv)
    from desktop_app.core.answers import prompts
    from desktop_app.core.models.catalog import load_catalog
    from desktop_app.core.models.llm import LlamaGenerator
    from desktop_app.core.models.model_files import resolve_llm
    from desktop_app.core.pipeline import Pipeline
    from desktop_app.core.settings import Settings

    settings = Settings(n_queries=args.n_queries)
    generator = LlamaGenerator(resolve_llm(load_catalog().default_llm), n_ctx=settings.n_ctx)
    generator.load()
    runs = []
    questions = QUESTIONS[: args.questions]
    for i, question in enumerate(questions):
        order = tuple(VARIANTS) if i % 2 == 0 else tuple(reversed(VARIANTS))
        for variant in order:
            previous = questions[i - 1]
            generator.warm_up(prompts.answer_messages(previous, []))  # the cache as a previous answer left it
            pipeline = Pipeline(None, None, None, lambda: generator, settings.replace(**VARIANTS[variant]))
            started, cpu = time.perf_counter(), time.process_time()
            generated = pipeline.generate_queries(question)
            row = {"variant": variant, "question": question, "seconds": time.perf_counter() - started,
                   "cpu_s": time.process_time() - cpu, "new_tokens": generator.count_tokens(generated.raw),
                   "queries": list(generated.queries), "load_avg": os.getloadavg()[0]}
            runs.append(row)
            print(f"  [{i}] {variant:8s} {row['seconds']:6.2f}s cpu {row['cpu_s']:6.2f}s tokens {row['new_tokens']:3d} {row['queries']}", flush=True)
    rows = []
    for variant in VARIANTS:
        mine = [r for r in runs if r["variant"] == variant]
        rows.append((variant, median([r["seconds"] for r in mine]), median([r["cpu_s"] for r in mine]),
                     median([r["new_tokens"] for r in mine]), median([len(r["queries"]) for r in mine])))
    print()
    print(f"Query generation, {len(questions)} questions, {args.n_queries} queries (medians)")
    print(table(("levers", "seconds", "cpu s", "new tokens", "queries"), rows))
    path = write_results("query_generation", {"runs": runs, "table": rows})
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
