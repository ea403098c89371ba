"""Local-first chat with your documents."""

import logging

__version__ = "0.1.0"

# A library's habit: nothing is printed unless the app (window or CLI) sets up logging (core/logs.py).
logging.getLogger(__name__).addHandler(logging.NullHandler())
