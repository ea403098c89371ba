"""Stage 3, answer: the prompt (prompts.py), the streamed reply and its stops (streaming.py), each claim checked against
what it cites (review.py, over grounding.py; model_check.py asks the model what words cannot tell)."""
