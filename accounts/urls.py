"""REST URLs for clubs and members, under /api/v1/."""
urlpatterns: list = []
