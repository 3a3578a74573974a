"""Top-level URLs. App URLs live in accounts/urls.py and games/urls.py."""
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from loo_ledger.api_root import ApiRootView
from loo_ledger.browsable import DocsPageRenderer
from loo_ledger.favicon import favicon
from loo_ledger.home import club_page, home_page
from loo_ledger.problems import problem_index_view, problem_type_view

DOCS = [DocsPageRenderer]  # drf-spectacular's TemplateHTMLRenderer, naming the page's language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api-auth/", include("rest_framework.urls")),
    path("api/v1/", ApiRootView.as_view(), name="api-root"),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="schema", renderer_classes=DOCS),
         name="swagger-ui"),
    path("api/v1/redoc/", SpectacularRedocView.as_view(url_name="schema", renderer_classes=DOCS),
         name="redoc"),
    path("api/v1/", include("accounts.urls")),
    path("api/v1/", include("games.urls")),
    path("problems/", problem_index_view, name="problem-types"),
    path("problems/<slug:code>", problem_type_view, name="problem-type"),
    path("", include("games.web_urls")),
    path("clubs/<slug:club>/", club_page, name="club-page"),
    path("", home_page, name="home"),
    path("favicon.ico", favicon, name="favicon"),
]
