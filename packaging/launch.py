"""Entry point of the packaged app (PyInstaller runs this file)."""

import sys

from desktop_app.ui.app import main

if __name__ == "__main__":
    sys.exit(main())
