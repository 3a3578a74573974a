"""Server-rendered pages: a session's report and the club's results (session login)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode

from accounts.tenancy import resolve_membership
from games.api.filters import DATE_FROM, DATE_TO
from games.models import GameSession
from games.reports.club import club_results
from games.reports.gather import session_report
from games.reports.render import CSV_TABLES, group_digits, report_html
from games.settlement import format_money
from loo_ledger.page_policy import own_page
from loo_ledger.problems import Problem
from loo_ledger.query import refuse_unknown_query


@own_page
@login_required
def session_report_page(request: HttpRequest, club: str, session_id: int) -> HttpResponse:
    member = resolve_membership(request.user, club)
    session = get_object_or_404(GameSession.objects.select_related("club"), pk=session_id,
                                club=member.club)
    api = reverse("report-api", kwargs={"club": club, "session_id": session.pk})
    links = [("JSON", f"{api}?format=json"),  # every CSV table the API offers, one list
             *((f"CSV: {table}", f"{api}?format=csv&table={table}") for table in CSV_TABLES),
             ("PDF", f"{api}?format=pdf"),
             ("Session file (.jsonl)",
              reverse("session-file", kwargs={"club": club, "session_id": session.pk})),
             ("Club results", reverse("club-results-page", kwargs={"club": club})),
             ("Home", reverse("home"))]
    return HttpResponse(report_html(session_report(session), links=links))


@own_page
@login_required
def club_results_page(request: HttpRequest, club: str) -> HttpResponse:
    from games.reports.api import RESULTS_DATE_ALIASES, RESULTS_QUERY, results_range

    member = resolve_membership(request.user, club)
    try:  # a misspelt range (``?form=``) would show every session's results: said, as the API does
        refuse_unknown_query(request.GET, RESULTS_QUERY)
        date_from, date_to = results_range(request.GET)
    except Problem as exc:  # the page again, saying what is wrong with the query
        # what was typed, in the form's boxes (named as the aliases, from/to), whichever name
        # the query gave it under (a link may say date_from/date_to)
        typed = {f"typed_{alias}": request.GET.get(alias) or request.GET.get(name, "")
                 for name, alias in RESULTS_DATE_ALIASES.items()}
        return render(request, "reports/club_results.html", {
            "club": member.club, "rows": [], "error": str(exc.detail), "csv_url": "", **typed},
            status=400)
    rows = club_results(member.club, date_from, date_to)
    # the CSV of the range shown, by the API's names: not the page's whole query, whose own
    # ``format=json`` (or any other parameter) the API would read too
    shown = {name: day.isoformat() for name, day in ((DATE_FROM, date_from), (DATE_TO, date_to))
             if day}
    csv_url = reverse("club-results-api", kwargs={"club": club}) + "?" + urlencode(
        {"format": "csv", **shown})
    def money(units: int | None, currency: str) -> str:
        return "" if units is None else group_digits(format_money(units, currency))

    table = [{"r": r, "money_bought": money(r.money_bought, r.currency),
              "result": money(r.result, r.currency), "best": money(r.best, r.currency),
              "worst": money(r.worst, r.currency)} for r in rows]
    currencies = sorted({r.currency for r in rows})
    return render(request, "reports/club_results.html", {
        "club": member.club, "rows": table, "date_from": date_from, "date_to": date_to,
        # the money columns' unit: the one currency, else each row's own
        "unit": currencies[0] if len(currencies) == 1 else "in the row's currency",
        "csv_url": csv_url,
    })

