"""`python -m scoring presets|hand|game|settle|seat` (CONTRACT.md §1, §5)."""

import sys

from scoring.cli import main

sys.exit(main(sys.argv[1:]))
