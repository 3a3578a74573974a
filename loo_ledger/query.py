"""Query strings: a request names the parameters its URL takes, and one it does not is a 400.

A list used to pass over a parameter it did not take, so a misspelt filter (``?delaer=ann``)
answered every deal, quietly: to a treasurer filtering a report, a wrong answer. Every GET of a
view built on :class:`KnownQuery` (each view under ``/clubs/{club}/`` and the clubs list) now
refuses one, naming it and the nearest known name, and listing those it takes: its filters
(the view's django-filter ``FilterSet``), ``page`` (a paginated list), ``format`` (DRF's choice
of renderer: the browsable API's ``?format=api``, ``?format=json``) and any the view reads
itself (``query_parameters``: a report's ``table``, the results' date range). A filter's value
(or one the view reads) is refused too when no text field could hold it: a NUL character, or
more than :data:`MAX_QUERY_CHARS` characters (no name, day or rule comes near). ``page`` and
``format`` are read by their own rules (``loo_ledger.pagination``: a page of 5,000 digits is
past the last, a 404; ``loo_ledger.negotiation``: a format nothing offers, a 406).

A write (POST, PUT, PATCH, DELETE) is checked by the same function: its query string used to be
passed over whole, so ``POST .../imports/?alow_duplicate=true`` imported nothing new and said
nothing of the misspelling. A write takes the parameters it reads itself
(``write_query_parameters``: an import's ``allow_duplicate``) and, unread, what the browsable
API's forms send with it: they post to the page's own URL, query and all, so the page's
``format``, ``page`` and filters (``.../deals/?dealer=ann&format=api``). OPTIONS is not checked
(it answers what the URL takes, and changes nothing), nor a method the view has no handler for
(the 405 says so).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from rest_framework.request import Request
from rest_framework.settings import api_settings

from games.rules.errors import shown
from games.services.limits import text_problem

from .fields import UNKNOWN, nearest
from .problems import Problem

#: the longest value a query parameter may have: a member's name, a day, a rule's name and a
#: page number are far shorter
MAX_QUERY_CHARS = 200
#: the methods whose query string is read as the answer's question
READ_METHODS = frozenset({"GET", "HEAD"})
#: the methods whose query string is the view's own (an import's ``allow_duplicate``) beside
#: what the browsable API's form sends from its page
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def query_problem(query: Mapping[str, Any], filters: Iterable[str],
                  read_apart: Iterable[str] = ()) -> Problem | None:
    """The 400 for a query string (``query``: a ``QueryDict``, or any mapping of names to text)
    naming a parameter that is none of ``filters`` and ``read_apart``, or a filter whose value
    is not text a field could hold (``read_apart``'s values are read by their own rules); None
    when it is good. Each such parameter is one of ``errors``; the problem's ``parameters``
    lists those known, so a client can correct itself."""
    filters = set(filters)
    known = sorted(filters | set(read_apart))
    getlist = getattr(query, "getlist", lambda name: [query[name]])
    errors = []
    for name in query:
        if name not in known:
            near = nearest(name, known)
            hint = f": did you mean '{near}'?" if near else "."
            errors.append({"field": name, "message": f"Unknown query parameter '{shown(name, bare=True)}'{hint}",
                           "code": UNKNOWN})
            continue
        for value in getlist(name) if name in filters else ():
            if (problem := text_problem(value, MAX_QUERY_CHARS, name)) is not None:
                errors.append({"field": name, "message": f"{problem}."})
                break
    if not errors:
        return None
    takes = ", ".join(known) or "no query parameters"
    return Problem(400, code="validation-error", errors=errors, parameters=known,
                   detail=f"{' '.join(e['message'] for e in errors)} This URL takes {takes}.")


def refuse_unknown_query(query: Mapping[str, Any], filters: Iterable[str],
                         read_apart: Iterable[str] = ()) -> None:
    """Raise :func:`query_problem`'s 400, if there is one."""
    if (problem := query_problem(query, filters, read_apart)) is not None:
        raise problem


class KnownQuery:
    """Mixin for an ``APIView``: a read or a write whose query string names a parameter the
    view does not take is a 400 naming it (:func:`query_problem`, with :meth:`query_known`),
    once the caller is authenticated and allowed (an outsider still gets the 404, a call
    without credentials the 401)."""

    #: parameters the view reads itself on a GET, besides its filters, ``page`` and ``format``
    query_parameters: ClassVar[tuple[str, ...]] = ()
    #: parameters the view reads itself on a write
    write_query_parameters: ClassVar[tuple[str, ...]] = ()

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        known = self.query_known(request.method or "")
        if known is not None:
            refuse_unknown_query(request.query_params, *known)

    def query_known(self, method: str) -> tuple[set[str], set[str]] | None:
        """What a ``method`` request here may name, as :func:`query_problem`'s ``filters`` (read,
        their values checked) and ``read_apart``; None when its query string is not checked
        (OPTIONS; a method without a handler, which DRF answers 405)."""
        if not hasattr(self, method.lower()):
            return None
        if method in READ_METHODS:
            return self.query_filters(), self.query_apart()
        if method in WRITE_METHODS:
            # the browsable API posts its form to the page's URL: the page's query, unread
            return set(self.write_query_parameters), self.query_filters() | self.query_apart()
        return None

    def query_filters(self) -> set[str]:
        """The parameters this view filters by or reads itself: its ``FilterSet``'s filters and
        ``query_parameters``."""
        known = set(self.query_parameters)
        for backend in getattr(self, "filter_backends", ()):
            get_class = getattr(backend(), "get_filterset_class", None)
            filterset = get_class(self) if get_class else None
            known.update(filterset.base_filters if filterset else ())
        return known

    def query_apart(self) -> set[str]:
        """The parameters DRF reads by its own rules here: ``format``, and a list's page."""
        apart = {api_settings.URL_FORMAT_OVERRIDE}
        paginator = getattr(self, "paginator", None) if hasattr(self, "list") else None
        if paginator is not None:
            apart.update((getattr(paginator, "page_query_param", None),
                          getattr(paginator, "page_size_query_param", None)))
        return apart - {None}  # type: ignore[return-value]
