"""Local-first chat with your documents."""

__version__ = "0.1.0"
