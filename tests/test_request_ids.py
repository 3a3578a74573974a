"""Every answer names its request (``X-Request-ID``), and every line the service logs while
answering it carries the same id: an operator handed a failing request finds its traceback, and
the access log's line for it, among those of every other request."""
from __future__ import annotations

import re

from tests.test_deploy_settings import _manage, _production

ID = re.compile(r"[0-9a-f]{32}")


def test_every_answer_names_its_request(client):
    first, second = client.get("/api/v1/"), client.get("/no-such-page/")
    assert ID.fullmatch(first["X-Request-ID"]) and ID.fullmatch(second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_a_request_id_sent_by_the_client_is_not_taken():
    # a client choosing the id could make its request's lines pass for another's
    code = ("from django.test import Client; print(Client().get('/api/v1/', "
            "HTTP_HOST='loo.example.org', HTTP_X_REQUEST_ID='abc', secure=True)['X-Request-ID'])")
    done = _manage("shell", "-v", "0", "-c", code, **_production())
    assert ID.fullmatch(done.stdout.strip()), done.stdout + done.stderr


def test_an_error_is_logged_with_the_id_its_answer_names():
    code = (
        "from django.test import Client; from loo_ledger.api_root import ApiRootView\n"
        "def broken(self, request): raise RuntimeError('the bug')\n"
        "ApiRootView.get = broken\n"
        "c = Client(raise_request_exception=False, HTTP_HOST='loo.example.org')\n"
        "for path in ('/api/v1/', '/api/v1/no-such-thing/'):\n"
        "    r = c.get(path, secure=True); print(r.status_code, r['X-Request-ID'])"
    )
    done = _manage("shell", "-v", "0", "-c", code, **_production())
    [(error, failed), (missing, absent)] = [line.split() for line in done.stdout.split("\n")[:2]]
    assert (error, missing) == ("500", "404"), done.stdout + done.stderr
    log = done.stderr.splitlines()
    assert f"ERROR loo_ledger.problems [{failed}] Unhandled error on /api/v1/" in log, done.stderr
    assert any(line.startswith("RuntimeError: the bug") for line in log)  # its traceback
    assert f"WARNING django.request [{absent}] Not Found: /api/v1/no-such-thing/" in log


def test_gunicorns_access_log_names_the_id_too(tmp_path):
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    from tests.test_deploy_settings import ROOT

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**{k: v for k, v in os.environ.items()
              if not k.startswith(("DJANGO_", "LOO_", "DATABASE_URL", "CELERY_", "CACHE_URL"))},
           **_production(BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1", LOO_VAR_DIR=str(tmp_path))}
    log = tmp_path / "gunicorn.log"
    with log.open("w") as out:
        server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "-c",
                                   "deploy/gunicorn.conf.py", "loo_ledger.wsgi"],
                                  cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/", headers={
            "Host": "loo.example.org", "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "203.0.113.9"})
        deadline = time.monotonic() + 90  # gunicorn's start, on a machine under load
        while True:
            try:
                answer = urllib.request.urlopen(request, timeout=10)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError(log.read_text()) from None
                time.sleep(0.2)
        request_id = answer.headers["X-Request-ID"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    [line] = [line for line in log.read_text().splitlines() if '"GET /api/v1/ ' in line]
    assert line.startswith("203.0.113.9 127.0.0.1 ") and line.endswith(f" {request_id}"), line
