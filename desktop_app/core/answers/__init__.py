"""Stage 3, answer: the prompt built from the evidence (prompts.py; the evidence is chosen by retrieval/evidence.py),
the answer streamed with its NOT FOUND detection and its repetition stop (streaming.py), each claim checked against
what it cites (review.py, over grounding.py), follow-up questions rewritten from the chat (followup.py), and chats
exported to Markdown (export.py)."""
