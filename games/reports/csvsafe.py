"""CSV that a spreadsheet opens as data: no cell of ours can run as a formula.

Names, display names and evidence are typed by club members; a cell starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return is a formula to Excel and LibreOffice, which can fetch
URLs or run commands when a treasurer opens the file. Such a cell gets a leading ``'`` (OWASP's
advice for CSV injection); figures, negative ones included, stay figures.
"""
from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, TextIO

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_FIGURE = re.compile(r"-?\d+(\.\d+)?")


def spreadsheet_safe(cell: Any) -> Any:
    """``cell`` as a spreadsheet will show it, never run it."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_START) and not _FIGURE.fullmatch(cell):
        return "'" + cell
    return cell


class SafeWriter:
    """``csv.writer`` whose every row goes through ``spreadsheet_safe``."""

    def __init__(self, out: TextIO) -> None:
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([spreadsheet_safe(cell) for cell in row])
