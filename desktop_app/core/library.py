"""The one object the window and the CLI hold: the data folder with its database, index and models.

Heavy things load late: the embedder and the LLM load on first use, so opening a library is instant.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Container, Iterable, Iterator, Sequence
from pathlib import Path

from .answers.export import chat_to_markdown
from .answers.followup import Turn
from .codec import result_to_json
from .errors import AppError, StorageError
from .events import AnswerDone
from .ingest.embedding_queue import EmbeddingQueue
from .ingest.folder_sync import plan_sync
from .ingest.importer import Importer
from .models.catalog import Catalog, load_catalog
from .models.embedder import Embedder
from .models.llm import Generator, LlamaGenerator
from .models.model_files import ByteProgress, open_embedder, resolve_llm
from .pipeline import Pipeline
from .settings import HTTP_FIELDS, Settings, load_settings, save_settings
from .sql.catalog import catalog
from .storage import paths
from .storage.store import Store
from .storage.table_store import TableStore
from .storage.vector_index import IndexState, VectorIndex
from .text_excerpt import TextExcerpt, passage_excerpt
from .types import AskResult, Citation, Document, ImportProgress, IndexBacklog, Passage


class Library:
    def __init__(
        self,
        home: Path | None = None,
        settings: Settings | None = None,
        catalog: Catalog | None = None,
        embedder: Embedder | None = None,
        generator: Generator | None = None,
    ):
        """`embedder` and `generator` replace the configured models (tests pass fakes)."""
        self.home = Path(home) if home else paths.data_home()
        paths.ensure_private_dir(self.home)
        self.catalog = catalog or load_catalog()
        self.settings = settings or load_settings(self.home)
        self.embedder = embedder or open_embedder(self.settings.embedder, self.catalog)
        self.store = Store(self.home / "library.sqlite")
        self.tables = TableStore(self.home / "tables.sqlite")  # CSV/Excel tables, apart from the app's own (table_store.py)
        self.index = VectorIndex(self.home / "chunks.hnsw", IndexState(model=self.embedder.name, dimension=self.embedder.dimension))
        self.notices: list[str] = []
        self._generator: Generator | None = generator
        self._fixed_generator = generator is not None
        self._generator_lock = threading.Lock()
        self.model_progress: ByteProgress | None = None
        self._index_fingerprint: tuple[int, int, int] | None = None
        notice = self.sync_index()
        if notice:
            self.notices.append(notice)

    # -- the vector index mirrors SQLite --------------------------------------------------------
    def sync_index(self) -> str | None:
        """Load the index and make it hold exactly the chunks in SQLite. Returns a notice if it had to be repaired."""
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
        # An interrupted import leaves the index behind SQLite; catching up is routine, not news.
        return None

    def refresh_index(self) -> bool:
        """Bring the in-memory index up to SQLite when another process (a second window, the CLI) changed it.

        SQLite is the source of truth and its own locking keeps it whole; each process keeps its own
        hnswlib copy and re-syncs it here, cheaply, only when the chunks' fingerprint moved.
        Returns True when the index changed.
        """
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
                s = self.settings
                self._generator = LlamaGenerator(
                    model_path,
                    n_ctx=s.n_ctx,
                    n_threads=s.n_threads or None,
                    n_threads_batch=s.n_threads_batch or None,
                    n_batch=s.n_batch,
                    use_mmap=s.use_mmap,
                    prompt_lookup_tokens=s.prompt_lookup_tokens,
                    prefix_cache_dir=self.home / "prefix-cache",
                )
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

    def update_settings(self, settings: Settings) -> None:
        settings = settings.validated()
        model_fields = ("model", "n_ctx", "n_threads", "n_threads_batch", "n_batch", "use_mmap", "prompt_lookup_tokens", *HTTP_FIELDS)
        reload_model = any(getattr(settings, f) != getattr(self.settings, f) for f in model_fields)
        self.settings = settings
        save_settings(self.home, settings)
        if reload_model and not self._fixed_generator:
            with self._generator_lock:
                self._generator = None

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
        return self._importer().import_paths(paths_, passwords, cancel, cancelled_files)

    def store_paths(
        self, paths_: Iterable[Path | str], passwords: dict[str, str] | None = None, cancel: threading.Event | None = None, cancelled_files: Container[str] = ()
    ) -> Iterator[ImportProgress]:
        """Only the first phase: every file listed, its text stored and searchable by keyword; the window then runs
        `embedding_queue()` on its own, so a later drop's text goes before the earlier drops' embedding."""
        self.refresh_index()
        return self._importer().store_paths(paths_, passwords, cancel, cancelled_files)

    def embedding_queue(self) -> EmbeddingQueue:
        """The meaning index's queue: every passage still without a vector (this session's imports or an earlier one's)."""
        self.refresh_index()
        return self._importer().embedding_queue()

    def index_backlog(self) -> IndexBacklog:
        return IndexBacklog(self.store.pending_count(), self.store.chunk_count())

    def _importer(self) -> Importer:
        return Importer(self.store, self.index, self.embedder, self.settings.embed_batch_size, self.tables)

    def remove_document(self, document_id: int) -> None:
        self.refresh_index()
        table_names = [t.name for t in catalog(self.store, [document_id])]
        ids = self.store.delete_document(document_id)
        self.tables.drop(table_names)  # after the catalog row is gone, so no question can reach a dropped table
        self.index.remove(ids)
        self.index.save()

    # -- watched folders: kept in sync with the library ------------------------------------------
    def watched_folders(self) -> list[str]:
        return self.store.watched_folders()

    def watch_folder(self, folder: Path | str) -> str:
        """Keeps a folder in sync from now on (`sync_folders` imports what it holds); returns its resolved path."""
        path = Path(folder).expanduser().resolve()
        if not path.is_dir():
            raise AppError(f"{path} is not a folder", hint="Give the path of a folder that exists.")
        self.store.add_watched_folder(str(path))
        return str(path)

    def unwatch_folder(self, folder: Path | str) -> bool:
        """Stops keeping it in sync; its documents stay in the library. False when it was not watched."""
        return self.store.remove_watched_folder(str(folder)) or self.store.remove_watched_folder(str(Path(folder).expanduser().resolve()))

    def sync_folders(
        self, folders: Iterable[str] | None = None, changed: Iterable[str] | None = None, cancel: threading.Event | None = None, embed: bool = True
    ) -> Iterator[ImportProgress]:
        """Brings the library in line with the watched folders (all, or `folders`): documents whose file was deleted
        or moved away are removed ("removed"; chats that cited them keep the quoted text in their saved answers),
        new and changed files imported. `changed`: only the paths a watcher reported; None rescans every file.
        `embed` False stores the text only (the window's embedding queue follows)."""
        changed = None if changed is None else list(changed)
        plans = []
        for folder in self.watched_folders() if folders is None else folders:
            if not Path(folder).is_dir():
                # An unplugged drive is not a deletion: nothing is removed while the folder is away.
                yield ImportProgress(folder, "warning", message=f"The watched folder {folder} is not there; its documents stay in the library until it is back")
                continue
            plans.append(plan_sync(self.store, folder, changed))
        for plan in plans:
            for document in plan.to_remove:
                self.remove_document(document.id)
                yield ImportProgress(document.path, "removed", message=f"no longer in {plan.folder}", document_id=document.id)
        files = [file for plan in plans for file in plan.to_import]
        if files:
            yield from (self.import_paths if embed else self.store_paths)(files, cancel=cancel)

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
        return Pipeline(self.store, self.index, self.embedder, self.generator, settings or self.settings, self.tables)

    def ask(self, question: str, mode: str | None = None, allowed_documents: Sequence[int] | None = None, **kwargs) -> Iterator[object]:
        return self.pipeline().ask(question, mode, allowed_documents, **kwargs)

    # -- chats -----------------------------------------------------------------------------------
    def chat_history(self, chat_id: int) -> list[Turn]:
        """The chat's question/answer pairs, oldest first."""
        turns: list[Turn] = []
        pending: str | None = None
        for _, role, content, _ in self.store.messages(chat_id):
            if role == "user":
                pending = content
            elif pending is not None:
                turns.append(Turn(pending, content))
                pending = None
        return turns

    def ask_in_chat(self, chat_id: int, question: str, mode: str | None = None, allowed_documents: Sequence[int] | None = None, **kwargs) -> Iterator[object]:
        """Ask with the chat's history (follow-ups are rewritten) and keep the question and the answer in the chat."""
        result = None
        for event in self.ask(question, mode, allowed_documents, history=self.chat_history(chat_id), **kwargs):
            if isinstance(event, AnswerDone):
                result = event.result
            yield event
        if result is not None:
            self.add_chat_turn(chat_id, question, result.answer, result)

    def add_chat_turn(self, chat_id: int, question: str, answer: str, result: AskResult | None = None) -> None:
        """Keeps a question and its answer in the chat; a finished answer's result is stored beside it as JSON.

        Without a result (an answer stopped before it finished) the chat still shows the question and what streamed.
        """
        self.store.add_message(chat_id, "user", question)
        self.store.add_message(chat_id, "assistant", answer, json.dumps(result_to_json(result)) if result is not None else None)

    def export_chat(self, chat_id: int) -> str:
        return chat_to_markdown(self.store, chat_id)

    def chats(self) -> list[tuple[int, str, str]]:
        """(id, title, last updated), most recent first."""
        return self.store.chats()

    def create_chat(self, title: str) -> int:
        return self.store.create_chat(title)

    def delete_chat(self, chat_id: int) -> None:
        self.store.delete_chat(chat_id)

    def chat_messages(self, chat_id: int) -> list[tuple[int, str, str, str | None]]:
        """(id, role, text, the answer's result JSON or None), oldest first."""
        return self.store.messages(chat_id)

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
