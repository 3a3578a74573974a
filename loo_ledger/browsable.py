"""The renderers of the HTML pages DRF and drf-spectacular draw: the browsable API, and the API
docs (Swagger UI, ReDoc), as theirs, with the page's language named.

Their templates (``rest_framework/base.html``, ``drf_spectacular/swagger_ui.html`` and
``redoc.html``) write a bare ``<html>`` outside any template block, so no template override can
name the language; without it a screen reader guesses how to pronounce the page (axe:
``html-has-lang``). The browsable API's other fixes are in ``templates/rest_framework/api.html``.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from rest_framework import renderers

BARE_HTML = "<html>"


class NamesItsLanguage:
    """A renderer mixin: the page's first ``<html>`` gets ``lang``, the active language's code
    (LANGUAGE_CODE, en-gb: the words DRF translates are in it)."""

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: dict[str, Any] | None = None) -> str:
        page = super().render(data, accepted_media_type, renderer_context)  # type: ignore[misc]
        return page.replace(BARE_HTML, f'<html lang="{get_language()}">', 1)


class BrowsableAPIRenderer(NamesItsLanguage, renderers.BrowsableAPIRenderer):
    """DRF's browsable API (settings: DEFAULT_RENDERER_CLASSES)."""


class DocsPageRenderer(NamesItsLanguage, renderers.TemplateHTMLRenderer):
    """Swagger UI's and ReDoc's pages (loo_ledger/urls.py)."""
