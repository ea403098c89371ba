"""The catalog of CSV/Excel tables a question may query: the `data_tables` rows of the library database."""

from __future__ import annotations

import json
from collections.abc import Iterable

from ..storage.store import Store
from ..types import TableInfo


def catalog(store: Store, document_ids: Iterable[int] | None = None) -> list[TableInfo]:
    """The stored tables, of the given documents or all of them."""
    rows = store.data_table_rows(document_ids)
    return [TableInfo(r[0], r[1], r[2], r[3], tuple(json.loads(r[4]))) for r in rows]

