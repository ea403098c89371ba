"""`python -m desktop_app.cli`, as the Makefile, the tests and the benchmarks run it."""

import sys

from . import main

sys.exit(main())
