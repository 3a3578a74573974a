"""Loo sessions, deals, the chip ledger and settlement.

The rules engine lives in ``games.rules`` and imports nothing from Django: importing this
package must stay free of Django so that ``python -m games.rules`` runs on the standard library.
"""
