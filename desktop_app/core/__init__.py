"""The engine: pure Python, never imports Qt (the window and the CLI are thin shells over it)."""
