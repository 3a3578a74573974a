"""Page numbers: the API's lists and the club's web page read ``?page=`` by one rule.

A page that is not a whole number from 1 is the client's mistake, a 400 naming ``page``; a
page past the last is not found, a 404 saying which page is the last. (DRF answered both with
a 404 "Invalid page.", so ``?page=0`` read as if the list itself did not exist.)
"""
from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError

from .fields import as_written


class PageRefused(Exception):
    """``?page=`` names no page: ``status`` 400 (not a page number) or 404 (past the last)."""

    def __init__(self, status: int, message: str):
        self.status, self.message = status, message
        super().__init__(message)


def page_number(asked: str, paginator: Paginator) -> int:
    """The page number ``asked`` (the text of ``?page=``) names in ``paginator``.
    Raises ``PageRefused`` saying why it names none."""
    digits = asked.lstrip("0") if asked.isascii() and asked.isdigit() else ""
    if not digits:
        raise PageRefused(400, f"page must be a whole number from 1, not {as_written(asked)}.")
    last = paginator.num_pages
    # longer than the last page's number is past it: said before int(), which refuses text of
    # more than 4,300 digits (a ValueError, which was a 500)
    if len(digits) > len(str(last)) or int(digits) > last:
        raise PageRefused(404, f"There is no page {digits}: the last is page {last}.")
    return int(digits)


class PageNumberPagination(pagination.PageNumberPagination):
    """DRF's page numbers (``?page=last`` too), refused as ``page_number`` refuses them."""

    def get_page_number(self, request: Any, paginator: Paginator) -> int:
        asked = request.query_params.get(self.page_query_param) or "1"
        if asked in self.last_page_strings:
            return paginator.num_pages
        try:
            return page_number(asked, paginator)
        except PageRefused as refused:
            if refused.status == 400:
                raise ValidationError({self.page_query_param: [refused.message]}) from None
            raise NotFound(refused.message) from None
