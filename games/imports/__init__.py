"""Bulk import of session files (JSON Lines) as background jobs."""
