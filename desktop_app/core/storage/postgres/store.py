"""The library in PostgreSQL as one object with the SQLite Store's methods (../store.py)."""

from __future__ import annotations

from .chunks import PgChunkStore
from .documents import PgDocumentStore
from .overviews import PgOverviewStore
from .records import PgChatStore, PgCollectionStore, PgWatchedFolderStore


class PgStore(PgDocumentStore, PgChunkStore, PgChatStore, PgCollectionStore, PgWatchedFolderStore, PgOverviewStore):
    """documents, pages, chunks (with their vectors and HNSW index), keyword search, chats, collections, watched folders, overviews."""
