"""jobcheck: a linter for scheduled and background jobs."""

__version__ = "0.1.0"
