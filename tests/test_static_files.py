"""Production serves static files under content-hashed names that browsers may keep for ever.

The web unit's own `collectstatic` runs once with the production settings into a temporary
LOO_VAR_DIR; this process then serves with those settings, and every static URL that the
admin, the API docs, the browsable API and the club's pages ask for, and every file that their
stylesheets and scripts ask for in turn, is fetched through whitenoise.
"""
from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from posixpath import dirname, normpath
from typing import Any

import pytest
from django.test import Client

from loo_ledger.staticfiles import HashedStaticFilesStorage
from tests.test_deploy_settings import ROOT, _manage, _production

FOR_EVER = "max-age=315360000, public, immutable"  # whitenoise's ten years
HASHED = re.compile(r"\.[0-9a-f]{12}(\.[A-Za-z0-9]+)?$")  # app.3f2a1b9c0d4e.js, LICENSE.3f2a1b9c0d4e
IN_PAGE = re.compile(r"""(?:src|href)=["']([^"']*static/[^"']*)["']""")
IN_CSS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)|@import\s+["']([^"']+)["']""")
IN_JS = re.compile(r"^//# sourceMappingURL=(\S+)\s*$", re.MULTILINE)
SETTINGS = ("STORAGES", "STATIC_ROOT", "WHITENOISE_USE_FINDERS")

pytestmark = pytest.mark.django_db  # the pages read logins, clubs and sessions


@pytest.fixture(scope="module")
def production_static(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The production settings' static files part, after the web unit's collectstatic ran."""
    var = tmp_path_factory.mktemp("var")
    before = var / "static" / "admin" / "css"  # what an earlier version's collectstatic left
    before.mkdir(parents=True)
    for name in ("base.css", "base.css.br", "gone.css"):
        (before / name).write_text("/* old */")
    unit = (ROOT / "deploy" / "loo-ledger-web.service").read_text()
    collect = next(line for line in unit.splitlines()
                   if line.startswith("ExecStartPre=") and " collectstatic" in line)
    env = _production(LOO_VAR_DIR=str(var))
    done = _manage(*collect.split("manage.py ", 1)[1].split(), **env)
    assert done.returncode == 0, done.stdout + done.stderr
    code = ("import json; from django.conf import settings as s; "
            f"print(json.dumps({{n: str(getattr(s, n)) if n == 'STATIC_ROOT' else getattr(s, n) "
            f"for n in {SETTINGS!r}}}))")
    shown = _manage("shell", "-v", "0", "-c", code, **env)
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout.splitlines()[-1])


@pytest.fixture
def serve_as_production(settings, production_static):
    """Serve as production does (DEBUG is off in the tests already); the middleware is made
    afresh by each new Client, so it reads the STATIC_ROOT given here."""
    for name in SETTINGS:
        setattr(settings, name, production_static[name])
    return production_static


def _body(response) -> str:
    """The whole body (reading a file response to its end closes it, as a WSGI server would)."""
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return body.decode(errors="replace")  # images and fonts too: only CSS and JS are read


def _references(url: str, text: str) -> list[str]:
    """The static URLs a stylesheet or a script asks for, relative ones made absolute."""
    if url.endswith(".css"):
        found = [a or b for a, b in IN_CSS.findall(text)]
    elif url.endswith(".js"):
        found = IN_JS.findall(text)
    else:
        return []
    return [normpath(f"{dirname(url)}/{ref.split('#')[0].split('?')[0]}") for ref in found
            if not re.match(r"^([a-z]+:|//|#)", ref)]


def _check_assets(client: Client, pages: list[str]) -> set[str]:
    """Fetch every static URL the pages ask for, and what those ask for; each must be a hashed
    name served for ever. Returns the URLs fetched."""
    queue: list[str] = []
    for page in pages:
        response = client.get(page, HTTP_ACCEPT="text/html")
        assert response.status_code == 200, (page, response.status_code)
        for url in IN_PAGE.findall(_body(response)):
            assert url.startswith("/static/"), (page, url)  # never a relative or hard-coded form
            queue.append(url)
    fetched: set[str] = set()
    while queue:
        url = queue.pop()
        if url in fetched:
            continue
        fetched.add(url)
        response = client.get(url)
        assert response.status_code == 200, url
        assert HASHED.search(url), url
        assert response["Cache-Control"] == FOR_EVER, url
        queue.extend(_references(url, _body(response)))
    return fetched


def test_every_page_gets_its_static_files_hashed_and_cacheable_for_ever(
        serve_as_production, world, member_for, django_user_model, caplog):
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root-123")
    owner = member_for("owner").user
    session = world["session_id"]
    with caplog.at_level(logging.WARNING, logger="loo_ledger.staticfiles"):
        anonymous = _check_assets(Client(), ["/admin/login/", "/api-auth/login/", "/api/v1/docs/",
                                             "/api/v1/redoc/"])
        staff = Client()
        staff.force_login(admin)
        in_admin = _check_assets(staff, [  # date and time widgets, select2, filters
            "/admin/", f"/admin/auth/user/{admin.pk}/change/", "/admin/accounts/member/add/",
            "/admin/games/gamesession/"])
        member = Client()
        member.force_login(owner)
        as_member = _check_assets(member, [
            "/", "/clubs/oak/", f"/clubs/oak/sessions/{session}/report/", "/clubs/oak/results/",
            "/api/v1/clubs/", f"/api/v1/clubs/oak/sessions/{session}/"])
    fetched = anonymous | in_admin | as_member
    for part in ("admin/css/", "admin/js/", "admin/img/", "admin/js/vendor/select2/",
                 "rest_framework/css/",
                 "rest_framework/js/", "drf_spectacular_sidecar/swagger-ui-dist/",
                 "drf_spectacular_sidecar/redoc/"):
        assert any(url.startswith(f"/static/{part}") for url in fetched), part
    assert caplog.records == []  # no name was missing from the manifest


def test_the_docs_scripts_are_served_compressed(serve_as_production):
    page = _body(Client().get("/api/v1/docs/"))
    bundle = next(u for u in IN_PAGE.findall(page) if "swagger-ui-bundle" in u)
    response = Client().get(bundle, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    _body(response)
    assert response["Content-Encoding"] == "br"
    assert response["Vary"] == "Accept-Encoding"
    assert int(response["Content-Length"]) < 500_000  # 1.6 MB as it is


def test_only_hashed_copies_are_kept_and_source_maps_stay_uncompressed(serve_as_production):
    names = [p.relative_to(serve_as_production["STATIC_ROOT"]).as_posix()
             for p in Path(serve_as_production["STATIC_ROOT"]).rglob("*") if p.is_file()]
    plain = [n for n in names if n != "staticfiles.json"
             and not HASHED.search(n.removesuffix(".gz").removesuffix(".br"))]
    assert plain == []
    assert any(n.endswith(".map") for n in names)
    assert not any(n.endswith((".map.br", ".map.gz")) for n in names)


def test_without_collectstatic_a_page_still_loads_and_the_log_says_why(
        serve_as_production, settings, tmp_path, caplog, monkeypatch):
    # STATIC_ROOT empty: no manifest, as when a deploy forgot collectstatic
    settings.STATIC_ROOT = str(tmp_path)
    monkeypatch.setattr(HashedStaticFilesStorage, "_reported", set())
    with caplog.at_level(logging.ERROR, logger="loo_ledger.staticfiles"):
        for url in ("/admin/login/", "/api/v1/docs/", "/admin/login/"):
            response = Client().get(url)
            assert response.status_code == 200, url
    page = _body(response)
    assert 'href="/static/admin/css/base.css"' in page  # the plain name, which 404s
    named = [r.getMessage() for r in caplog.records if "'admin/css/base.css'" in r.getMessage()]
    assert len(named) == 1  # once, however often it is asked for
    assert "run `manage.py collectstatic`" in named[0]
