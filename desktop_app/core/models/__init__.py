"""The models, loaded late: the sentence-transformers embedder, the local llama.cpp LLM (with its KV-prefix
snapshots), the OpenAI-compatible server client, the model catalog and its files, and the rerankers."""
