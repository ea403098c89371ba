"""Answer latency of several variants side by side, over the R manuals with the default model.

    python -m bench.answer_latency [--repeats 2] [--questions 8] [--n-queries 4]
        [--variants rag,fusion+evidence_tokens=0,fusion]
    python -m bench.answer_latency --devset .cache/devset --home .cache/eval/devset-home-onnx --questions 8

The first form asks questions about the R manuals (Debian's r-doc-pdf, imported into --home on first use).
The second asks the dev set's own questions (a fixed seeded sample, as the eval's --sample) over a library
that already holds the dev set's articles (the eval's library; the same articles as the dev set's PDF books,
one article per page).

One long-running process, like the window: the model loads once and the prompts' fixed prefixes are got ready
at start (`Pipeline.warm_up`). `python -m bench.cold_latency` measures the other way to ask: each question a new
CLI process (issue 18).

A variant is a mode with Settings fields after "+" (as the eval's --modes): the default compares plain RAG,
RAG-Fusion reading whole passages (the answer stage before issue 14) and RAG-Fusion reading the chosen
evidence sentences (today's default). All answer the same questions over the same library with the same
model; the order of the variants rotates from question to question, so a noisy neighbour on the shared
machine hits all alike; ratios are medians of per-question ratios measured back to back.

Columns per variant: each stage; first_evidence (Enter to the first quotes on screen: in fusion mode the first look
at the question's own finds, while the queries are written); fused_evidence (Enter to the fused evidence's quotes,
what the model reads);
first_token (Enter to the model's first word); total; prompt_tokens (the answer prompt's message text,
by the model's tokenizer, its system prompt included though its KV prefix is reused).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from pathlib import Path

from .common import RESULTS_DIR, median, require_r_manuals, table, write_results

QUESTIONS = (
    "How do I install an R package from a local source tarball?",
    "How can I read a data file with a header line into a data frame?",
    "What does the tapply function do?",
    "How do I fit a linear regression model and print a summary of it?",
    "Which environment variable sets the directories where R looks for installed packages?",
    "What tools and compilers do I need to build R from source on a Unix-alike?",
    "How do I create a sequence of numbers from 1 to 30 in steps of 0.5?",
    "What is the difference between a list and a data frame in R?",
)
CORPUS = ("R-intro.pdf", "R-admin.pdf")
STAGES = (
    "query_generation", "embedding", "retrieval", "fusion", "evidence", "first_evidence", "fused_evidence", "prompt_processing", "generation", "review",
    "first_token", "total", "prompt_tokens", "cpu_s", "load_avg",
)  # fmt: skip
DEFAULT_VARIANTS = "rag,fusion+evidence_tokens=0,fusion"


class PromptMeter:
    """Wraps the generator: counts the tokens of the last answer prompt it was given (the query prompt is skipped)."""

    def __init__(self, generator):
        self.generator = generator
        self.last_tokens = 0

    def __getattr__(self, name):
        return getattr(self.generator, name)

    def stream(self, messages, *args, **kwargs):
        if messages and messages[-1]["content"].startswith("Passages:"):
            self.last_tokens = sum(self.generator.count_tokens(m["content"]) for m in messages)
        return self.generator.stream(messages, *args, **kwargs)


def parse_variant(text: str) -> tuple[str, dict]:
    from desktop_app.core.settings import Settings
    from desktop_app.evaluation import variants  # noqa: F401  (registers the research variants: fusion-name-fact, ...)

    mode, *pairs = text.split("+")
    overrides = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        kind = type(getattr(Settings, key))
        overrides[key] = raw.lower() in ("1", "true", "yes") if kind is bool else kind(raw)
    return mode, overrides


def open_library(home: Path, settings, import_r_manuals: bool = True):
    from desktop_app.core.library import Library

    library = Library(home, settings=settings)
    if not import_r_manuals:
        return library
    files = require_r_manuals(*CORPUS)
    for event in library.import_paths(files):
        if event.stage in ("ready", "failed"):
            print(f"  import {Path(event.file).name}: {event.stage} {event.message}")
    return library


def dev_questions(folder: Path, n: int) -> list[str]:
    """The first n questions of the eval's seeded sample (--sample N --seed 0 asks these too)."""
    from desktop_app.evaluation.harness import load_beir, sample_queries

    return [text for _, text in sample_queries(load_beir(folder).queries, n, seed=0)]


def run_one(library, meter: PromptMeter, question: str, variant: str) -> dict:
    from desktop_app.core.events import AnswerDone
    from desktop_app.core.pipeline import Pipeline

    mode, overrides = parse_variant(variant)
    settings = library.settings.replace(**overrides)
    pipeline = Pipeline(library.store, library.index, library.embedder, lambda: meter, settings, library.tables)
    result = None
    # Each run meets the cache as a new question would: the fixed prompt prefixes, not the other mode's passages.
    generator = library.generator()
    generator.forget_context()
    seen = len(generator.prefix_uses)
    meter.last_tokens = 0
    cpu_started = time.process_time()
    for event in pipeline.ask(question, mode):
        if isinstance(event, AnswerDone):
            result = event.result
    generator = library.generator()
    row = dataclasses.asdict(result.timings)
    row.update(
        prompt_tokens=meter.last_tokens,
        cpu_s=time.process_time() - cpu_started,  # all threads; less sensitive to the shared machine's load than wall time
        load_avg=os.getloadavg()[0],
        mode=variant,
        question=question,
        queries=list(result.queries),
        context=len(result.context),
        found=result.found,
        answer_tokens=generator.count_tokens(result.answer) if result.found else 0,
        answer=result.answer,
        notices=list(result.notices),  # why an answer became "not found" (the model's reply), a citation moved or flagged
        prefix_evaluated=sum(u.evaluated for u in list(generator.prefix_uses)[seen:]),  # prompt-prefix tokens read again
    )
    return row


def main(argv: list[str] | None = None) -> int:
    from desktop_app.core.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1, help="passes over the questions (each pass runs both modes)")
    parser.add_argument("--questions", type=int, default=len(QUESTIONS))
    parser.add_argument("--n-queries", type=int, default=Settings.n_queries)
    parser.add_argument("--top-k", type=int, default=Settings.top_k)
    parser.add_argument("--max-answer-tokens", type=int, default=Settings.max_answer_tokens)
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override any Settings field (a lever), e.g. --set n_batch=256")
    parser.add_argument("--home", type=Path, default=RESULTS_DIR / "home-r-manuals")
    parser.add_argument("--variants", default=DEFAULT_VARIANTS, help="comma-separated modes with Settings fields, e.g. fusion+evidence_tokens=0")
    parser.add_argument("--devset", type=Path, help="ask this BEIR folder's questions (seeded sample) over --home, which already holds its corpus")
    args = parser.parse_args(argv)

    overrides = {}
    for item in args.set:
        key, _, value = item.partition("=")
        current = getattr(Settings, key)
        overrides[key] = type(current)(value) if not isinstance(current, bool) else value.lower() in ("1", "true", "yes")
    settings = Settings(n_queries=args.n_queries, top_k=args.top_k, max_answer_tokens=args.max_answer_tokens, **overrides)
    print(f"settings: {settings}")
    library = open_library(args.home, settings, import_r_manuals=args.devset is None)
    questions = dev_questions(args.devset, args.questions) if args.devset else list(QUESTIONS[: args.questions])

    load_started = time.perf_counter()
    library.generator().load()
    library.embedder.embed(["warm up"])
    load_s = time.perf_counter() - load_started
    # Untimed: the window does this when it opens (both prompts' fixed instructions into KV snapshots),
    # as a long-running app would have them after its first question.
    library.pipeline().warm_up()

    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    meter = PromptMeter(library.generator())
    runs: list[dict] = []
    for repeat in range(args.repeats):
        for i, question in enumerate(questions):
            shift = (i + repeat) % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                row = run_one(library, meter, question, variant)
                row["repeat"], row["question_index"] = repeat, i
                runs.append(row)
                print(f"  [{repeat}.{i}] {variant:28s} quotes {row['first_evidence']:5.2f}s fused {row['fused_evidence']:5.2f}s first token {row['first_token']:6.2f}s "
                      f"total {row['total']:6.2f}s prompt {row['prompt_tokens']:4d} tok, answer {row['answer_tokens']} tok | "
                      + " ".join(f"{s}={row[s]:.2f}" for s in STAGES[:5]) + f" review={row['review'] * 1000:.1f}ms cpu={row['cpu_s']:.1f} load={row['load_avg']:.1f}", flush=True)
            write_results("answer_latency-partial", {"settings": dataclasses.asdict(settings), "runs": runs})  # survives an interrupted run

    def stage_median(variant: str, stage: str) -> float:
        return median([r[stage] for r in runs if r["mode"] == variant])

    def paired(variant: str, base: str, stage: str) -> float:
        """The median per-question ratio variant/base, from runs of the same question and repeat."""
        by_key = {(r["repeat"], r["question_index"], r["mode"]): r for r in runs}
        ratios = [
            by_key[(r["repeat"], r["question_index"], variant)][stage] / r[stage]
            for r in runs if r["mode"] == base and r[stage] > 1e-3 and (r["repeat"], r["question_index"], variant) in by_key
        ]
        return median(ratios) if ratios else float("nan")

    rows = [(stage, *(stage_median(v, stage) for v in variants)) for stage in (*STAGES, "answer_tokens")]
    print()
    print(f"Answer latency over {args.devset or 'the R manuals'}: {len(questions)} questions x {args.repeats} repeats, model {settings.model}, "
          f"{settings.n_queries} queries, top_k {settings.top_k}, evidence_tokens {settings.evidence_tokens}, model load {load_s:.1f}s "
          f"(seconds, medians; load average {os.getloadavg()[0]:.1f} at the end: above ~2.5 the machine was shared)")
    print(table(("stage", *variants), rows))
    print()
    base = variants[0]
    for variant in variants[1:]:
        print(f"median per-question ratio {variant} / {base}: total {paired(variant, base, 'total'):.3f}, "
              f"first token {paired(variant, base, 'first_token'):.3f}")
    if "rag" in variants and "fusion" in variants:
        ratio_total = paired("fusion", "rag", "total")
        print(f"fusion/plain total: {ratio_total:.3f} (target <= 1.10: {'MET' if ratio_total <= 1.10 else 'NOT MET'})")
    for variant in variants:
        ft, ev, fused = (stage_median(variant, s) for s in ("first_token", "first_evidence", "fused_evidence"))
        print(f"{variant}: first token median {ft:.2f}s (target <= 5 s: {'MET' if ft <= 5 else 'NOT MET'})"
              + (f", first quotes median {ev:.2f}s (target <= 1.5 s: {'MET' if ev <= 1.5 else 'NOT MET'})" if ev else "")
              + (f", fused evidence median {fused:.2f}s ({'within' if fused <= 1.5 else 'over'} 1.5 s)" if fused else ""))
    for variant in variants:  # the grounding check runs after the last token: it cannot delay the first one
        shares = [r["review"] / r["total"] for r in runs if r["mode"] == variant and r["total"] > 0]
        print(f"{variant}: review (grounding check) median {stage_median(variant, 'review') * 1000:.1f} ms, max {max(r['review'] for r in runs if r['mode'] == variant) * 1000:.1f} ms; "
              f"share of total median {median(shares):.4f}, max {max(shares):.4f} (target <= 0.10: {'MET' if max(shares) <= 0.10 else 'NOT MET'})")
    ratio_total = paired("fusion", "rag", "total") if "rag" in variants and "fusion" in variants else None
    ft_diff = None
    path = write_results("answer_latency", {
        "settings": dataclasses.asdict(settings), "model_load_s": load_s,
        "ratio_total": ratio_total, "first_token_diff_s": ft_diff, "table": rows, "runs": runs,
    })
    print(f"results: {path}")
    library.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
