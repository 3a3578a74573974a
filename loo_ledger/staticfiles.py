"""Static files in production: whitenoise's compressed storage with content-hashed names, which
never turns a page into a 500 over a name missing from the manifest."""
from __future__ import annotations

import logging

from whitenoise.storage import CompressedManifestStaticFilesStorage

logger = logging.getLogger(__name__)


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """``collectstatic`` writes each file under a name holding a hash of its content (with
    gzip and brotli copies beside it) and ``staticfiles.json``, the map from plain names to
    hashed ones that ``{% static %}`` reads: a deploy that changes a file changes its URL, so
    whitenoise can let browsers keep every file for ever.

    A name the map lacks (``collectstatic`` not run since the code changed, or a name that no
    app ships) would be Django's ValueError, a 500 for the admin, the API docs or any browsable
    API page that asked for it. Here it is logged once and given its plain URL instead, which
    404s: the page still works, unstyled, and the log says what to run.
    """

    _reported: set[str] = set()  # names logged by this process, each once

    def stored_name(self, name: str) -> str:
        try:
            return super().stored_name(name)
        except ValueError:
            if name not in self._reported:
                self._reported.add(name)
                logger.error("static file %r is not in %s: run `manage.py collectstatic` before "
                             "starting the service (served under its plain name until then)",
                             name, self.path(self.manifest_name))
            return name
