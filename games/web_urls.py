"""Server-rendered pages (settlement reports)."""
urlpatterns: list = []
