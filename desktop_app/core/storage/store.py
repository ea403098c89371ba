"""The library database (`library.sqlite`), the source of truth, as one object with one method per question.

Each concern is its own class over the same connections (database.py): documents and pages
(documents.py), chunks, embeddings and keyword search (chunks.py), chats (chats.py), collections
(collections.py), watched folders (watched_folders.py), document overviews (overviews.py). `Store` puts them together, so callers write `store.passages(ids)` or
`store.create_chat(title)` without knowing which module answers.
"""

from __future__ import annotations

from .chats import ChatStore
from .chunks import ChunkStore
from .collections import CollectionStore
from .documents import DocumentStore
from .overviews import OverviewStore
from .watched_folders import WatchedFolderStore


class Store(DocumentStore, ChunkStore, ChatStore, CollectionStore, WatchedFolderStore, OverviewStore):
    """documents, pages, chunks (with embeddings), keyword search, chats, collections, watched folders, overviews."""
