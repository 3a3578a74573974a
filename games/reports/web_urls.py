"""URL patterns (filled in by the owning module)."""
urlpatterns: list = []
