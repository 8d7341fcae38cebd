"""`python -m scoring presets|hand|game|settle` (CONTRACT.md §1)."""

import sys

from scoring.cli import main

sys.exit(main(sys.argv[1:]))
