"""Run the engine's command line: ``python -m games.rules replay FILE|-``."""
import sys

from .cli import main

sys.exit(main())
