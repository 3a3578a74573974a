"""REST URLs for sessions, deals, ledger, reports and imports, under /api/v1/."""
urlpatterns: list = []
