"""The one object the window and the CLI hold: the data folder with its database, index and models.

Heavy things load late: the embedder and the LLM load on first use, so opening a library is instant.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Container, Iterable, Iterator, Sequence
from pathlib import Path

from .errors import AppError, ModelError, StorageError
from .document_overview import Overview
from .events import AnswerDone
from .ingest.embedding_queue import EmbeddingQueue
from .ingest.importer import Importer
from .library_chats import LibraryChats
from .library_folders import WatchedFolders
from .models.catalog import Catalog, load_catalog
from .models.embedder import Embedder
from .models.llm import Generator, LlamaGenerator
from .models.model_files import ByteProgress, configured_embedder, resolve_llm
from .models.reading_speed import ReadingSpeed
from .overview.building import OverviewQueue, build_and_save
from .pipeline import Pipeline
from .retrieval.query_writing import fallback_reason
from .settings import EMBEDDER_FIELDS, HTTP_FIELDS, Settings, read_settings, save_settings
from .sql.catalog import catalog
from .storage import paths
from .storage.postgres import is_database_url
from .storage.store import Store
from .storage.table_store import TableStore
from .storage.vector_index import IndexState, VectorIndex
from .text_excerpt import TextExcerpt, passage_excerpt
from .types import Citation, Document, ImportProgress, IndexBacklog, Passage

log = logging.getLogger(__name__)

# Rebuild the index once deleted labels hold more than this share of it: a rebuild reads every vector from
# SQLite and re-inserts it into a new graph (30,000 x 384 took 222 s on 2 cores at load ~12, bench lock held;
# questions use the old index meanwhile), so it waits until a quarter of the index is dead weight.
COMPACT_SHARE = 0.25


class Library(LibraryChats, WatchedFolders):
    def __init__(
        self,
        home: Path | None = None,
        settings: Settings | None = None,
        catalog: Catalog | None = None,
        embedder: Embedder | None = None,
        generator: Generator | None = None,
        location: str | None = None,
    ):
        """`embedder` and `generator` replace the configured models (tests pass fakes).

        `location`: a postgresql:// address puts the library in that database (documents, chunks, vectors, chats);
        None uses the settings' library_url, and an empty one the data folder (SQLite and hnswlib files).
        The data folder keeps the settings, logs and caches either way.
        """
        self.home = Path(home) if home else paths.data_home()
        paths.ensure_private_dir(self.home)
        self.catalog = catalog or load_catalog()
        self.notices: list[str] = []
        if settings is None:
            loaded = read_settings(self.home)
            settings = loaded.settings
            if loaded.notice():
                self.notices.append(loaded.notice())
        self.settings = settings
        self.location = (self.settings.library_url if location is None else location).strip()
        self.store = self._open_store()
        self._fixed_embedder = embedder is not None
        # After the store: a server embedder takes its vectors' length from what the library recorded.
        self.embedder = embedder or configured_embedder(self.settings, self.catalog, self.store.embedding_model())
        self.tables = TableStore(self.home / "tables.sqlite")  # CSV/Excel tables, apart from the app's own (table_store.py)
        self.index = self._vector_index()
        self._generator: Generator | None = generator
        self._fixed_generator = generator is not None
        self._generator_lock = threading.Lock()
        self.reading_speed = ReadingSpeed()  # how fast the model reads prompts here: the estimate of the wait
        self.model_progress: ByteProgress | None = None
        self._index_fingerprint: tuple[int, int, int] | None = None
        model_notice = self._check_embedding_model(opening=True)
        index_notice = self.sync_index()  # after a model change its rebuild is part of the re-indexing: one notice
        notice = model_notice or index_notice
        if notice:
            self.notices.append(notice)
        for notice in self.notices:
            log.warning("library %s: %s", self.home, notice)

    # -- the vector index mirrors SQLite --------------------------------------------------------
    def _open_store(self) -> Store:
        if is_database_url(self.location):
            from .storage.postgres.store import PgStore  # late: psycopg is an optional extra

            return PgStore(self.location)
        return Store(self.home / "library.sqlite")

    @property
    def in_database(self) -> bool:
        """The library is in PostgreSQL: its vectors are the index, with nothing to load, mirror or save."""
        return is_database_url(self.location)

    def _vector_index(self) -> VectorIndex:
        if self.in_database:
            from .storage.postgres.vector_index import PgVectorIndex

            return PgVectorIndex(self.store, self.embedder.dimension)
        return VectorIndex(self.home / "chunks.hnsw", IndexState(model=self.embedder.name, dimension=self.embedder.dimension))

    def _switch_embedder(self) -> str | None:
        """Another embedder from the settings: its vector set replaces the old one, filled in by the embedding queue."""
        old, new = self.embedder, configured_embedder(self.settings, self.catalog, self.store.embedding_model())
        _ = new.dimension  # a server that does not answer fails here, with the library as it was
        self.embedder = new
        self.index = self._vector_index()
        close = getattr(old, "close", None)
        if close:
            close()
        model_notice = self._check_embedding_model()
        index_notice = self.sync_index()  # the old model's index file is rebuilt empty, to be filled by the queue
        return model_notice or index_notice

    def _check_embedding_model(self, opening: bool = False) -> str | None:
        """Vectors made by another embedding model are dropped and made again in the background.

        The database records which model made its vectors. A library from before that record adopts
        the model its index file names (or, without one, the configured model: what made them then).
        """
        model = f"{self.embedder.name}/{self.embedder.dimension}"
        recorded = self.store.embedding_model()
        if opening and self.in_database and recorded not in (None, model) and self.store.chunk_count():
            # A shared library: another person's app indexed it with another model. Opening it here must not
            # throw their vectors away (and theirs would then throw ours away, back and forth).
            raise ModelError(
                f"This shared library's passages were indexed with {recorded.rpartition('/')[0]}, and this app uses {self.embedder.name}",
                hint="Choose the same search model (or embeddings server) in Settings, or with --embed-url and --embed-model; changing the library's model is done from Settings.",
            )
        if recorded is None:
            built_with = self.index.built_with()
            if built_with is not None:
                self.store.use_embedding_model(built_with)
        dropped = self.store.use_embedding_model(model)
        if not dropped:
            return None
        self.store.drop_overviews()  # their vectors came from the old model: built again after the re-indexing
        return (
            f"The embedding model changed to {self.embedder.name}: {dropped} passages are being indexed again in the "
            "background; until then they are found by their words."
        )

    def sync_index(self) -> str | None:
        """Load the index and make it hold exactly the chunks in SQLite. Returns a notice if it had to be repaired."""
        if self.in_database:
            return None
        reason = self.index.load()
        self._index_fingerprint = self.store.chunks_fingerprint()
        db_ids = set(self.store.embedded_chunk_ids())  # chunks still waiting for a vector are not indexed yet
        fresh_library = reason == "missing" and not db_ids
        if reason and not fresh_library:
            self.index.reset(len(db_ids) + 1000)
            for ids, vectors in self.store.embeddings():
                self.index.add(ids, vectors)
            self.index.save()
            return f"The search index was rebuilt from the library because {reason}."
        index_ids = self.index.ids()
        missing = db_ids - index_ids
        extra = index_ids - db_ids
        if not missing and not extra:
            return None
        for ids, vectors in self.store.embeddings(sorted(missing)):
            self.index.add(ids, vectors)
        self.index.remove(extra)
        self.index.save()
        # No compaction here: the window opens its library on the UI thread. Imports and removals compact.
        # An interrupted import leaves the index behind SQLite; catching up is routine, not news.
        return None

    def compact_index(self, force: bool = False) -> bool:
        """Rebuild the index from SQLite when deleted labels hold more than COMPACT_SHARE of it.

        hnswlib keeps a deleted label's slot (re-imports take fresh ids), so without this the index only
        grows. The new index is built beside the one in use (questions go on meanwhile), swapped in under
        the index lock, brought level with whatever changed during the build, and saved the usual atomic way.
        Returns True when it compacted.
        """
        if self.in_database or (not force and self.index.deleted_share() <= COMPACT_SHARE):
            return False
        ids = self.store.embedded_chunk_ids()
        fresh = self.index.build(self.store.embeddings(), len(ids) + 1000)
        self.index.swap(fresh)
        self._index_fingerprint = None  # catch up with imports and removals that ran during the build
        self.refresh_index()
        self.index.save()
        return True

    def refresh_index(self) -> bool:
        """Bring the in-memory index up to SQLite when another process (a second window, the CLI) changed it.

        SQLite is the source of truth and its own locking keeps it whole; each process keeps its own
        hnswlib copy and re-syncs it here, cheaply, only when the chunks' fingerprint moved.
        Returns True when the index changed.
        """
        if self.in_database:
            return False  # one index in the database, the same for every process
        fingerprint = self.store.chunks_fingerprint()
        if fingerprint == self._index_fingerprint:
            return False
        # Index ids first, then SQLite: an id added to the index in between is already committed,
        # so it can never be mistaken for one that was deleted.
        index_ids = self.index.ids()
        db_ids = set(self.store.embedded_chunk_ids())  # chunks still waiting for a vector are not indexed yet
        missing = db_ids - index_ids
        extra = index_ids - db_ids
        for ids, vectors in self.store.embeddings(sorted(missing)):
            self.index.add(ids, vectors)
        self.index.remove(extra)
        self._index_fingerprint = fingerprint
        return bool(missing or extra)

    # -- models ----------------------------------------------------------------------------------
    def generator(self) -> Generator:
        with self._generator_lock:
            if self._generator is None and self.settings.llm_backend == "http":
                from .models.openai_client import OpenAIHttpGenerator, api_key

                s = self.settings
                self._generator = OpenAIHttpGenerator(s.llm_url, s.llm_http_model, api_key(s.llm_api_key), s.llm_timeout)
            if self._generator is None:
                model_path = resolve_llm(self.settings.model, self.model_progress, self.catalog)
                self._generator = LlamaGenerator.from_settings(model_path, self.settings, prefix_cache_dir=self.home / "prefix-cache")
            return self._generator

    def model_label(self) -> str:
        """What answers the questions, in words: the local model's name, or the server's model and address."""
        s = self.settings
        return f"{s.llm_http_model or 'server'} at {s.llm_url}" if s.llm_backend == "http" else s.model

    def prepare_model(self, progress: ByteProgress | None = None) -> Path:
        return resolve_llm(self.settings.model, progress, self.catalog)

    def warm_prompt_prefixes(self) -> str:
        """Get the prompts' fixed prefixes into the disk cache now (`models prepare`), so later processes only load them."""
        generator = self.generator()
        if not isinstance(generator, LlamaGenerator):
            return f"Prompt prefixes: nothing to prepare for {self.model_label()}."
        seen = len(generator.prefix_uses)
        self.pipeline().warm_up()
        uses = list(generator.prefix_uses)[seen:]
        read = sum(1 for u in uses if u.source == "read")
        return f"Prompt prefixes for {self.settings.model}: {read} read and saved, {len(uses) - read} already saved ({self.home / 'prefix-cache'})."

    def update_settings(self, settings: Settings, save: bool = True) -> str | None:
        """Use (and save) these settings. Returns a notice when another embedder means re-indexing the passages."""
        settings = settings.validated()
        model_fields = ("model", "n_ctx", "n_threads", "n_threads_batch", "n_batch", "use_mmap", "prompt_lookup_tokens", *HTTP_FIELDS)
        reload_model = any(getattr(settings, f) != getattr(self.settings, f) for f in model_fields)
        new_embedder = any(getattr(settings, f) != getattr(self.settings, f) for f in (*EMBEDDER_FIELDS, "embed_concurrency", "llm_timeout"))
        previous = self.settings
        self.settings = settings
        if new_embedder and not self._fixed_embedder:
            try:
                notice = self._switch_embedder()
            except AppError:
                self.settings = previous  # a server that cannot be reached leaves the library as it was
                raise
        else:
            notice = None
        if save:
            save_settings(self.home, settings)
        if reload_model and not self._fixed_generator:
            with self._generator_lock:
                self._generator = None
                self.reading_speed = ReadingSpeed()  # another model or server reads at its own speed
        return notice

    # -- documents --------------------------------------------------------------------------------
    def documents(self) -> list[Document]:
        return self.store.documents()

    def import_paths(
        self, paths_: Iterable[Path | str], passwords: dict[str, str] | None = None, cancel: threading.Event | None = None, cancelled_files: Container[str] = ()
    ) -> Iterator[ImportProgress]:
        """Every file's text first (each searchable by keyword as soon as it is stored), then the embedding queue."""
        self.refresh_index()
        # Extraction stays in this process: spreading it over processes measured no faster on 2 cores,
        # and it is ~2% of an import (embedding is the rest).
        return self._then_compact(self._importer().import_paths(paths_, passwords, cancel, cancelled_files))

    def store_paths(
        self, paths_: Iterable[Path | str], passwords: dict[str, str] | None = None, cancel: threading.Event | None = None, cancelled_files: Container[str] = ()
    ) -> Iterator[ImportProgress]:
        """Only the first phase: every file listed, its text stored and searchable by keyword; the window then runs
        `embedding_queue()` on its own, so a later drop's text goes before the earlier drops' embedding."""
        self.refresh_index()
        return self._then_compact(self._importer().store_paths(paths_, passwords, cancel, cancelled_files))

    def embedding_queue(self) -> EmbeddingQueue:
        """The meaning index's queue: every passage still without a vector (this session's imports or an earlier one's)."""
        self.refresh_index()
        return self._importer().embedding_queue()

    def index_backlog(self) -> IndexBacklog:
        return IndexBacklog(self.store.pending_count(), self.store.chunk_count())

    def _importer(self) -> Importer:
        return Importer(self.store, self.index, self.embedder, self.settings.embed_batch_size, self.tables)

    def _then_compact(self, progress: Iterator[ImportProgress]) -> Iterator[ImportProgress]:
        for event in progress:
            if event.stage in ("failed", "warning"):
                log.warning("import %s: %s", event.stage, event.message)  # file names and reasons, never the text
            elif event.stage in ("ready", "skipped", "cancelled"):
                log.info("import %s: %s", event.stage, Path(event.file).name)
            yield event
        try:
            if self.compact_index():  # re-imports leave the old chunks' labels deleted
                log.info("search index compacted to %d passages", len(self.index))
        except StorageError as exc:
            log.warning("index compaction failed: %s", exc.user_message())
            yield ImportProgress(str(self.home), "warning", message=exc.user_message())

    # -- overviews (core/overview/): built after the meaning index, at lower priority ----------------
    def overview_queue(self) -> OverviewQueue:
        """Builds the overview of every ready document that has none; resumable (each one is committed)."""
        return OverviewQueue(self.store, self.embedder)

    def overview(self, document_id: int, build: bool = False) -> Overview | None:
        """A document's overview; with `build`, made now when its meaning index is complete and it has none yet."""
        overview = self.store.overview(document_id)
        document = self.store.document(document_id)
        if overview is None and build and document is not None and document.status == "ready" and document.kind == "text":
            overview = build_and_save(self.store, self.embedder, document_id)
        return overview

    def remove_document(self, document_id: int) -> None:
        self.refresh_index()
        table_names = [t.name for t in catalog(self.store, [document_id])]
        ids = self.store.delete_document(document_id)
        self.tables.drop(table_names)  # after the catalog row is gone, so no question can reach a dropped table
        self.index.remove(ids)
        self.index.save()
        self.compact_index()

    def find_document(self, ref: str) -> Document | None:
        """A document by id, path or file name."""
        docs = self.documents()
        for doc in docs:
            if ref.isdigit() and doc.id == int(ref):
                return doc
        resolved = str(Path(ref).expanduser().resolve())
        for doc in docs:
            if doc.path == resolved or Path(doc.path).name == ref or doc.title == ref:
                return doc
        return None

    # -- questions --------------------------------------------------------------------------------
    def pipeline(self, settings: Settings | None = None) -> Pipeline:
        self.refresh_index()
        return Pipeline(self.store, self.index, self.embedder, self.generator, settings or self.settings, self.tables, self.reading_speed)

    def ask(self, question: str, mode: str | None = None, allowed_documents: Sequence[int] | None = None, **kwargs) -> Iterator[object]:
        return _logged(self.pipeline().ask(question, mode, allowed_documents, **kwargs), question)

    def passage(self, chunk_id: int) -> Passage | None:
        return self.store.passages([chunk_id]).get(chunk_id)

    def passage_excerpt(self, cited: Citation | Passage) -> TextExcerpt:
        """A cited passage in its stored page or section with the text around it, for the window's text view."""
        return passage_excerpt(self.store, cited)

    # -- collections ------------------------------------------------------------------------------
    def collections(self) -> list[tuple[int, str, int]]:
        """(id, name, number of its documents in the library), by name."""
        return self.store.collections()

    def add_to_collection(self, name: str, paths_: Sequence[str]) -> None:
        """Creates the collection when it is new; membership is by path, so a re-imported file stays in it."""
        self.store.add_to_collection(name, paths_)

    def remove_from_collection(self, name: str, paths_: Sequence[str]) -> None:
        self.store.remove_from_collection(name, paths_)

    def delete_collection(self, name: str) -> None:
        self.store.delete_collection(name)

    def collection_documents(self, name: str) -> list[int]:
        ids = self.store.collection_document_ids(name)
        if ids is None:
            known = ", ".join(n for _, n, _ in self.store.collections()) or "none yet"
            raise AppError(f"No collection called '{name}'", hint=f"Collections: {known}.")
        return ids

    def close(self) -> None:
        try:
            if self.index.dirty:
                self.index.save()
        except StorageError:
            pass  # closing has no one left to tell; SQLite holds everything and the next open repairs the index
        finally:
            self.store.close()


def _logged(events: Iterator[object], question: str) -> Iterator[object]:
    """The ask's events, passed on; its timings and fallbacks are logged (its words only at DEBUG)."""
    log.debug("question: %r", question)
    try:
        for event in events:
            if isinstance(event, AnswerDone):
                result = event.result
                timings = " ".join(f"{k}={v:.2f}s" for k, v in dataclasses.asdict(result.timings).items() if v)
                log.info(
                    "asked: mode=%s queries=%d sources=%d cited=%d found=%s %s",
                    result.mode, len(result.queries), len(result.sources), len(result.citations), result.found, timings,
                )
                for notice in result.notices:
                    reason = fallback_reason(notice)
                    if reason:  # query writing failed: the question was searched alone
                        log.warning("ask fell back to searching the question alone: %s", reason)
                    # Other notices can quote the answer: DEBUG only.
                    log.debug("notice: %s", notice)
                log.debug("queries: %r; answer: %r", result.queries, result.answer)
            yield event
    except AppError as exc:
        log.warning("ask failed: %s", exc.user_message())
        raise
    except Exception:
        log.exception("ask failed unexpectedly")
        raise
    finally:
        close = getattr(events, "close", None)
        if close:
            close()
