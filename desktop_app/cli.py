"""desktop-app-cli: the headless way to run everything the window does, over the same core."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from .core.errors import AppError  # noqa: E402
from .core.events import (
    AnswerDone,
    QueriesGenerated,
    QuestionRewritten,
    SourcesRanked,
    SqlRan,
    Token,
)
from .core.ingest.pdf_tables import place_label  # noqa: E402
from .core.settings import MODES  # noqa: E402


class ProgressLine:
    """A one-line progress bar on stderr (plain lines when stderr is not a terminal)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr  # looked up now, not at import: tests (and callers) may swap sys.stderr
        self.tty = self.stream.isatty()
        self._last = 0.0

    def show(self, label: str, done: int, total: int, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < 0.2 and done != total:
            return
        self._last = now
        width = 30
        filled = int(width * done / total) if total else 0
        bar = "#" * filled + "-" * (width - filled)
        text = f"{label[:40]:40} [{bar}] {done}/{total}"
        if self.tty:
            self.stream.write("\r" + text)
        elif done == total or force:
            self.stream.write(text + "\n")
        self.stream.flush()

    def end(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


_OPEN: dict[str, object] = {}


def _library(args):
    from .core.library import Library

    # One library per process: the demo imports and then asks without loading the models twice.
    library = _OPEN.get("library") or Library()
    _OPEN["library"] = library
    overrides = {}
    for field, attr in (("n_queries", "queries"), ("rrf_k", "rrf_k"), ("top_k", "top_k"), ("model", "model"), ("mode", "mode"), ("reranker", "rerank")):
        value = getattr(args, attr, None)
        if value is not None:
            overrides[field] = value
    if getattr(args, "queries", None) is not None:
        overrides["max_queries"] = args.queries  # an explicit --queries N is a cap, not a minimum
    if getattr(args, "llm_url", None):
        overrides.update(llm_backend="http", llm_url=args.llm_url)
    if getattr(args, "llm_model", None):
        if not (args.llm_url or library.settings.llm_backend == "http"):
            raise AppError("--llm-model names a model on a server", hint="Give the server's address with --llm-url too.")
        overrides["llm_http_model"] = args.llm_model
    if overrides:
        try:
            library.settings = library.settings.replace(**overrides).validated()
        except ValueError as exc:
            raise AppError(f"Invalid option: {exc}", hint="See desktop-app-cli ask --help.") from exc
    progress = ProgressLine()
    library.model_progress = lambda done, total: progress.show("Preparing model", done // 2**20, total // 2**20)
    for notice in library.notices:
        print(notice, file=sys.stderr)
    return library


def cmd_ingest(args) -> int:
    library = _library(args)
    passwords = {}
    if args.password:
        for path in args.paths:
            passwords[str(Path(path).expanduser().resolve())] = args.password
        passwords["*"] = args.password  # also for protected files inside the folders given
    bar = ProgressLine()
    failed = 0
    for event in library.import_paths(args.paths, passwords):
        name = Path(event.file).name
        if event.stage in ("extracting", "embedding") and event.total:
            bar.show(f"{name}: {event.stage}", event.done, event.total)
        elif event.stage == "ready":
            bar.end() if bar.tty else None
            note = f" ({event.message})" if event.message else ""
            print(f"ready    {name}: {event.total} {event.unit}{note}")
        elif event.stage == "skipped":
            print(f"skipped  {name}: {event.message}")
        elif event.stage == "failed":
            failed += 1
            hint = " (give it with --password)" if "password" in event.message and not args.password else ""
            print(f"failed   {name}: {event.message}{hint}")
        elif event.stage == "cancelled":
            print(f"cancelled {name}")
        elif event.stage == "warning":
            print(f"warning  {event.message}")
    library.close()
    return 1 if failed else 0


def cmd_docs(args) -> int:
    library = _library(args)
    docs = library.documents()
    if args.json:
        print(json.dumps([d.__dict__ for d in docs], indent=2))
        return 0
    if not docs:
        print("No documents yet. Add some with: desktop-app-cli ingest PATH")
    for d in docs:
        if d.kind == "table":
            tables = f"{d.pages} table{'s' if d.pages != 1 else ''}"
            print(f"{d.id:5}  {d.status:8} {d.rows:5} rows  {tables:>13}  {d.title}  ({d.path})")
        else:
            print(f"{d.id:5}  {d.status:8} {d.pages:5} pages {d.chunks:6} chunks  {d.title}  ({d.path})")
    return 0


def cmd_remove(args) -> int:
    library = _library(args)
    doc = library.find_document(args.doc)
    if doc is None:
        print(f"No document matches '{args.doc}'. List them with: desktop-app-cli docs", file=sys.stderr)
        return 1
    library.remove_document(doc.id)
    if doc.kind == "table":
        print(f"Removed {doc.title} ({doc.pages} table{'s' if doc.pages != 1 else ''}, {doc.rows} rows)")
    else:
        print(f"Removed {doc.title} ({doc.chunks} chunks)")
    return 0


def _allowed(library, refs):
    if not refs:
        return None
    ids = []
    for ref in refs:
        doc = library.find_document(ref)
        if doc is None:
            raise AppError(f"No document matches '{ref}'", hint="List them with: desktop-app-cli docs")
        ids.append(doc.id)
    return ids


def cmd_ask(args, generate_answer: bool = True) -> int:
    from .core.codec import result_to_json

    library = _library(args)
    allowed = _allowed(library, args.doc)
    if getattr(args, "collection", None):
        allowed = sorted(set(allowed or []) | set(library.collection_documents(args.collection)))
    result = None
    out = sys.stdout
    chat = getattr(args, "chat", None)
    if chat and generate_answer:
        chat_id = library.create_chat(args.question[:60]) if chat == "new" else int(chat)
        if not args.json:
            print(f"Chat {chat_id}", file=out)
        events = library.ask_in_chat(chat_id, args.question, args.mode, allowed)
    else:
        events = library.ask(args.question, args.mode, allowed, generate_answer=generate_answer)
    heading_due = False
    streamed = ""
    for event in events:
        if args.json:
            if isinstance(event, AnswerDone):
                result = event.result
            continue
        if isinstance(event, QuestionRewritten):
            print(f"Searched as: {event.standalone}", file=out)
        elif isinstance(event, QueriesGenerated):
            if event.queries:
                print("Search queries:", file=out)
                for q in event.queries:
                    print(f"  - {q}", file=out)
            if event.notice:
                print(f"Note: {event.notice}", file=out)
        elif isinstance(event, SourcesRanked):
            print("Fused passages (RRF):", file=out)
            for s in event.sources[: max(10, len(event.context))]:
                mark = "*" if s in event.context else " "
                ranks = ", ".join(f"{r}" for r in s.ranks.values())
                print(f" {mark}{s.n:3}. {s.rrf_score:.4f}  {Path(s.passage.file).name} {_short_place(s.passage)}  ranks: {ranks}", file=out)
            print("\nAnswer:", file=out)
        elif isinstance(event, SqlRan):
            print_sql(event, out)
            heading_due = True
        elif isinstance(event, Token):
            if heading_due:  # SQL answers have no SourcesRanked to print the heading
                print("\nAnswer:", file=out)
                heading_due = False
            streamed += event.text
            out.write(event.text)
            out.flush()
        elif isinstance(event, AnswerDone):
            result = event.result
            print("\n", file=out)
            if result.sql_runs and result.answer.strip() != streamed.strip():  # the streamed sentence was replaced
                print(f"Corrected answer: {result.answer}\n", file=out)
            for c in result.citations:
                snippet = " ".join(c.text.split())[:100]
                flag = "" if c.supported else "  (unsupported?)"
                print(f"[{c.n}] {Path(c.file).name}, {place_label(c.page, c.kind)}{flag}: {snippet}...", file=out)
            for notice in result.notices:
                print(f"Note: {notice}", file=out)
            tm = result.timings
            if result.sql_runs:
                from .core.sql.text_to_sql import duration_text

                print(f"\n({tm.total:.1f} s; SQL written in {tm.query_generation:.1f} s, ran in {duration_text(tm.retrieval)}; answer {tm.generation:.1f} s)", file=out)
            else:
                print(f"\n({tm.total:.1f} s; first token after {tm.first_token:.1f} s; queries {tm.query_generation:.1f} s)", file=out)
    if args.json and result is not None:
        print(json.dumps(result_to_json(result), indent=2))
    library.close()
    return 0


def _short_place(passage) -> str:
    """The fused list's place column: "p.3", or "table p.3" for a table chunk."""
    return f"table p.{passage.page}" if passage.kind == "table" else f"p.{passage.page}"


def print_sql(event: SqlRan, out, max_rows: int = 20) -> None:
    """The SQL the model wrote and its result rows as a plain text table."""
    from .core.sql.text_to_sql import duration_text, format_value

    result = event.result
    print(("SQL (retry):" if event.attempt > 1 else "SQL:"), file=out)
    for line in result.sql.splitlines():
        print(f"  {line}", file=out)
    if not result.ok:
        print(f"Query failed: {result.error}", file=out)
        return
    cells = [list(result.columns)] + [[format_value(v) for v in row] for row in result.rows[:max_rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(result.columns))]
    for n, row in enumerate(cells):
        print("  " + "  ".join(c.rjust(w) if n and isinstance(result.rows[n - 1][i], (int, float)) else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip(), file=out)
        if n == 0:
            print("  " + "  ".join("-" * w for w in widths), file=out)
    more = "more than " if result.truncated else ""
    extra = f", first {max_rows} shown" if len(result.rows) > max_rows else ""
    print(f"({more}{len(result.rows)} row{'s' if len(result.rows) != 1 else ''}{extra}; {duration_text(result.elapsed)})", file=out)


def cmd_search(args) -> int:
    return cmd_ask(args, generate_answer=False)


def cmd_chats(args) -> int:
    library = _library(args)
    chats = library.chats()
    if not chats:
        print("No chats yet. Start one with: desktop-app-cli ask \"question\" --chat new")
    for chat_id, title, updated in chats:
        print(f"{chat_id:5}  {updated}  {title}")
    return 0


def cmd_export(args) -> int:
    library = _library(args)
    try:
        markdown = library.export_chat(int(args.chat))
    except (KeyError, ValueError):
        print(f"No chat {args.chat}. List them with: desktop-app-cli chats", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(markdown)
        print(f"Wrote {args.output}")
    else:
        print(markdown, end="")
    return 0


def cmd_collection(args) -> int:
    library = _library(args)
    if args.action == "list":
        for _, name, count in library.collections():
            print(f"{name}: {count} document(s)")
        return 0
    if not args.name:
        print("Name the collection.", file=sys.stderr)
        return 1
    if args.action == "delete":
        library.delete_collection(args.name)
        print(f"Deleted collection {args.name} (its documents stay in the library)")
        return 0
    docs = []
    for ref in args.docs:
        doc = library.find_document(ref)
        if doc is None:
            print(f"No document matches '{ref}'. List them with: desktop-app-cli docs", file=sys.stderr)
            return 1
        docs.append(doc)
    if args.action == "add":
        library.add_to_collection(args.name, [d.path for d in docs])
    else:
        library.remove_from_collection(args.name, [d.path for d in docs])
    print(f"{args.name}: {len(library.collection_documents(args.name))} document(s)")
    return 0


def cmd_eval(args) -> int:
    """Retrieval quality on a BEIR folder, through the app's own importer and pipeline."""
    from .core.ingest.importer import Importer
    from .core.library import Library
    from .core.pipeline import Pipeline
    from .evaluation import harness as evaluation
    from .evaluation.query_cache import CachedGenerator

    folder = Path(args.dir)
    try:
        beir = evaluation.load_beir(folder)
        modes = [evaluation.parse_mode(m) for m in args.modes.split(",") if m.strip()]
    except (FileNotFoundError, ValueError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    home = Path(args.home) if args.home else folder / "eval-library"
    library = Library(home=home)
    for notice in library.notices:
        print(notice, file=sys.stderr)
    records, names = evaluation.corpus_records(beir, folder)
    bar = ProgressLine()
    added = 0
    for done, event in enumerate(Importer(library.store, library.index, library.embedder).import_texts(records), start=1):
        added += event.stage == "ready"
        bar.show(f"Importing {folder.name}", done, len(records))
    bar.end()
    print(f"{len(records)} records in the library ({added} newly imported) at {home}", file=sys.stderr)

    cache = CachedGenerator(library.generator, Path(args.query_cache) if args.query_cache else home / "query-cache.sqlite", library.settings.model)
    for spec in modes:
        if spec.mode not in MODES:
            print(f"Error: unknown mode '{spec.mode}': use one of {', '.join(MODES)}", file=sys.stderr)
            return 2

    embedder = evaluation.MemoEmbedder(library.embedder)  # the first mode embeds a text, the others reuse it

    def pipeline_for(spec):
        settings = library.settings.replace(**spec.overrides).validated()
        return Pipeline(library.store, library.index, embedder, lambda: cache, settings)

    questions = evaluation.sample_queries(beir.queries, args.sample, args.seed)
    rows, summaries = [], []
    for done, report, row in evaluation.run_modes(beir, names, pipeline_for, modes, questions, cache.take_replayed):
        if report is None:
            rows.append(row)
            bar.show("Questions", done, len(questions))
        else:
            summaries.append(report.summary())
    bar.end()
    print(evaluation.format_table(summaries, f"{folder.name}: {len(questions)} questions, {len(beir.corpus)} records (LLM cache: {cache.hits} hits, {cache.misses} misses)"))
    if args.json:
        Path(args.json).write_text(json.dumps({"dir": str(folder), "n": len(questions), "sample": args.sample, "seed": args.seed, "summaries": summaries, "questions": rows}, indent=1))
    cache.close()
    library.close()
    return 0


def cmd_models(args) -> int:
    from .core.models.catalog import load_catalog, user_gguf_files
    from .core.models.model_files import resolve_llm

    catalog = load_catalog()
    if args.action == "list":
        for e in catalog.llms:
            default = " (default)" if e.name == catalog.default_llm else ""
            print(f"{e.name:22} {e.size / 1e6:8.0f} MB  {e.license:10} {e.title}{default}")
        for f in user_gguf_files():
            print(f"{f.name:22} {f.stat().st_size / 1e6:8.0f} MB  (your file: {f})")
        return 0
    bar = ProgressLine()
    names = args.names or [catalog.default_llm]
    for name in names:
        path = resolve_llm(name, lambda d, t: bar.show(f"Preparing {name}", d // 2**20, t // 2**20))
        bar.end()
        print(f"{name}: {path}")
    library = _library(args)  # the configured model's prompt prefixes, saved for later processes
    print(library.warm_prompt_prefixes())
    library.close()
    return 0


def cmd_demo(args) -> int:
    """What `make run` shows until the window exists: import a sample PDF and answer from it."""
    from .core.storage import paths
    from .sample_datasheet import write_sample_datasheet

    pdf = write_sample_datasheet(paths.data_home() / "samples" / "PX-40 datasheet.pdf")
    args.paths = [str(pdf)]
    args.password = None
    cmd_ingest(args)
    args.question = "What is the maximum operating temperature of the PX-40 pump?"
    args.mode = "fusion"
    args.doc = None
    args.json = False
    print(f"\nQuestion: {args.question}\n")
    return cmd_ask(args)


def add_server_arguments(p: argparse.ArgumentParser) -> None:
    # The key is read from DESKTOP_APP_LLM_API_KEY, never from the command line (others can read it in `ps`).
    p.add_argument("--llm-url", dest="llm_url", metavar="URL", help="answer with an OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--llm-model", dest="llm_model", metavar="NAME", help="the server's model name (default: the first it lists)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="desktop-app-cli", description="Chat with your documents, locally.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ingest", help="import PDF, .txt, .md, CSV and Excel (.xlsx) files or folders")
    p.add_argument("paths", nargs="+")
    p.add_argument("--password", help="password for protected PDFs")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("docs", help="list the documents in the library")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_docs)

    p = sub.add_parser("remove", help="remove a document (id, path or file name)")
    p.add_argument("doc")
    p.set_defaults(func=cmd_remove)

    for name, func, help_ in (("ask", cmd_ask, "answer a question from your documents"), ("search", cmd_search, "show the queries and fused passages without answering")):
        p = sub.add_parser(name, help=help_)
        p.add_argument("question")
        p.add_argument("--mode", choices=list(MODES))
        p.add_argument("--queries", type=int, help="most lines the model writes (one per thing to look up; the default prompt searches each by name and with its fact)")
        p.add_argument("--rrf-k", type=float, dest="rrf_k")
        p.add_argument("--top-k", type=int, dest="top_k", help="passages in the answer prompt")
        p.add_argument("--model", help="catalog name or path of a GGUF file")
        p.add_argument("--doc", action="append", help="limit to this document (repeatable)")
        p.add_argument("--collection", help="limit to the documents of this collection")
        p.add_argument("--rerank", help="rerank the fused passages: 'llm', or a CrossEncoder model folder")
        p.add_argument("--json", action="store_true")
        add_server_arguments(p)
        if name == "ask":
            p.add_argument("--chat", help="continue chat ID (follow-ups are rewritten from its history), or 'new'")
        p.set_defaults(func=func)

    p = sub.add_parser("chats", help="list the chats")
    p.set_defaults(func=cmd_chats)

    p = sub.add_parser("export", help="export a chat to Markdown with its citations")
    p.add_argument("chat")
    p.add_argument("-o", "--output", help="file to write (default: print)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("collection", help="group documents into named collections")
    p.add_argument("action", choices=["list", "add", "remove", "delete"])
    p.add_argument("name", nargs="?")
    p.add_argument("docs", nargs="*", help="documents (id, path or file name)")
    p.set_defaults(func=cmd_collection)
    p = sub.add_parser("eval", help="measure retrieval quality on a BEIR folder (corpus.jsonl, queries.jsonl, qrels.tsv)")
    p.add_argument("dir")
    p.add_argument("--modes", default="rag,naive-fusion,fusion", help="comma-separated; a variant sets Settings fields: fusion+rrf_k=60+question_weight=2")
    p.add_argument("--sample", type=int, help="score a fixed random sample of N questions")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--home", help="data folder of the eval library (default: DIR/eval-library); reused across runs")
    p.add_argument("--query-cache", dest="query_cache", help="SQLite file caching generated queries (default: in the eval library)")
    p.add_argument("--json", help="also write summaries and per-question results to this file")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("models", help="list or prepare the bundled models")
    p.add_argument("action", choices=["list", "prepare"])
    p.add_argument("names", nargs="*")
    p.set_defaults(func=cmd_models)

    p = sub.add_parser("demo", help="import a sample PDF and answer a question from it")
    add_server_arguments(p)
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except AppError as exc:
        print(f"Error: {exc.user_message()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
