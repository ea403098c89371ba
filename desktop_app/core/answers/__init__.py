"""Stage 3, answer: the prompt built from the best passages, the citation checks on what the model wrote,
follow-up questions rewritten from the chat, and chats exported to Markdown."""
