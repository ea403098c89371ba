"""The models, loaded late: the embedders (the bundled int8 ONNX MiniLM, or a sentence-transformers folder), the local
llama.cpp LLM (with its KV-prefix snapshots), the OpenAI-compatible server client, the model catalog and its files,
and the rerankers."""
