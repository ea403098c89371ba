"""Stage 3, answer: the prompt built from the evidence (prompts.py; evidence is chosen by retrieval/evidence.py), the
answer streamed with its NOT FOUND detection and repetition stop (streaming.py), each claim checked against what it
cites (review.py, over grounding.py), follow-ups rewritten from the chat (followup.py), chats exported (export.py)."""
