"""Integration tests run the real default models: MiniLM embeddings and the bundled Qwen2.5 1.5B GGUF.

The session fixtures `real_embedder` and `real_generator` live in tests/conftest.py, shared with tests/ui.
"""
