"""Where everything is kept: the SQLite database (documents, chunks, chats, collections; numbered migrations),
the hnswlib vector index rebuilt from it, the CSV/Excel table database, and the data folder's paths."""
