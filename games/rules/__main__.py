"""Run the engine's command line: ``python -m games.rules replay FILE|-``."""
from .cli import main, run

run(main)
