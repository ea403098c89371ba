"""Stage 3, answer: the prompt built from the best passages (prompts.py), the answer streamed with its NOT FOUND
detection (streaming.py), the checks on what the model wrote (review.py, over citation_check.py), follow-up
questions rewritten from the chat (followup.py), and chats exported to Markdown (export.py)."""
