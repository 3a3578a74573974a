"""The production settings of deploy/env.example pass Django's deployment checks, and the
service refuses to start without a secret key once DEBUG is off."""
from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DJANGO_", "LOO_", "DATABASE_URL", "CELERY_", "CACHE_URL"))}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**clean, **env}, check=False)


def _production(**extra: str) -> dict[str, str]:
    return {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "loo.example.org", "LOO_NUM_PROXIES": "1", **extra}


def test_the_production_settings_pass_the_deployment_checks():
    done = _manage("check", "--deploy", "--fail-level", "WARNING", **_production())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_settings_behind_the_proxy_are_secure():
    code = ("from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, "
            "s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
            "s.SECURE_PROXY_SSL_HEADER)")
    done = _manage("shell", "-v", "0", "-c", code, **_production())
    assert done.stdout.split("\n")[0] == "True True True 3600 ('HTTP_X_FORWARDED_PROTO', 'https')"


def test_database_connections_are_kept_as_env_example_says():
    code = ("from django.conf import settings as s; d = s.DATABASES['default']; "
            "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])")
    example = (ROOT / "deploy" / "env.example").read_text()
    assert "\nLOO_DB_CONN_MAX_AGE=60\n" in example
    kept = _manage("shell", "-v", "0", "-c", code, **_production(LOO_DB_CONN_MAX_AGE="60"))
    assert kept.stdout.split("\n")[0] == "60 True", kept.stdout + kept.stderr
    default = _manage("shell", "-v", "0", "-c", code)
    assert default.stdout.split("\n")[0] == "0 True", default.stdout + default.stderr


@pytest.mark.parametrize("name", ["LOO_DB_CONN_MAX_AGE", "LOO_NUM_PROXIES", "LOO_HSTS_SECONDS",
                                  "LOO_WORKER_CONCURRENCY"])
def test_a_number_setting_that_is_not_a_number_is_named(name):
    done = _manage("check", **_production(**{name: "sixty"}))
    assert done.returncode != 0
    assert f"{name} must be a whole number, not 'sixty'" in done.stderr


@pytest.mark.parametrize("name", ["DJANGO_DEBUG", "LOO_HTTPS", "LOO_SSL_REDIRECT",
                                  "LOO_HSTS_SUBDOMAINS", "LOO_HSTS_PRELOAD"])
def test_a_switch_that_is_neither_on_nor_off_is_named(name):
    # `LOO_HTTPS=ture` read as off would drop secure cookies, the https redirect and HSTS
    # without a word
    done = _manage("check", **_production(**{name: "ture"}))
    assert done.returncode != 0
    assert f"{name} must be true or false (or 1/0, yes/no, on/off), not 'ture'" in done.stderr


@pytest.mark.parametrize("value, secure", [("", True), ("  ", True), ("Off", False),
                                           ("0", False), ("YES", True)])
def test_a_switch_left_empty_keeps_its_default(value, secure):
    # `LOO_HTTPS=` in the environment file is "not set", as for a number or DATABASE_URL
    code = "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE)"
    done = _manage("shell", "-v", "0", "-c", code, **_production(LOO_HTTPS=value))
    assert done.stdout.strip() == str(secure), done.stdout + done.stderr


@pytest.mark.parametrize("rate", ["10 per minute", "10/fortnight", "ten/min", "0/min", "10/"])
def test_a_login_rate_that_is_not_a_rate_is_named(rate):
    # DRF reads the rate only at the first login, which was a 500 for every login after
    done = _manage("check", **_production(LOO_LOGIN_RATE=rate))
    assert done.returncode != 0
    assert (f"LOO_LOGIN_RATE must be a number of tries (1 or more) a second, minute, hour or "
            f"day, like 10/min, not {rate!r}") in done.stderr


@pytest.mark.parametrize("rate, parsed", [("5/hour", (5, 3600)), (" 20/s ", (20, 1)),
                                          ("", (10, 60))])
def test_a_login_rate_is_read_as_drf_reads_it(rate, parsed):
    code = ("from rest_framework.throttling import SimpleRateThrottle as T; "
            "from django.conf import settings as s; "
            "print(T.parse_rate(None, s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']['login']))")
    done = _manage("shell", "-v", "0", "-c", code, LOO_LOGIN_RATE=rate)
    assert done.stdout.strip() == str(parsed), done.stdout + done.stderr


def test_a_log_level_that_is_no_level_is_named():
    done = _manage("check", LOG_LEVEL="verbose")
    assert done.returncode != 0
    assert ("LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'verbose'"
            in done.stderr), done.stderr[-500:]


def test_a_state_directory_that_cannot_be_made_is_named(tmp_path):
    # (a file where the directory should be, or one the service user may not write)
    (tmp_path / "taken").write_text("")
    done = _manage("check", LOO_VAR_DIR=str(tmp_path / "taken" / "var"))
    assert done.returncode != 0
    assert f"LOO_VAR_DIR: cannot make {tmp_path / 'taken' / 'var'}: " in done.stderr, done.stderr


@pytest.mark.parametrize("hosts", [None, "", " , "])
def test_production_without_its_host_names_refuses_to_start(hosts):
    # the development default (127.0.0.1, localhost, testserver) or none: every request the
    # proxy passes is a 400, and the error log (which leaves out unknown hosts) says nothing
    env = _production()
    del env["DJANGO_ALLOWED_HOSTS"]
    if hosts is not None:
        env["DJANGO_ALLOWED_HOSTS"] = hosts
    done = _manage("check", **env)
    assert done.returncode != 0
    assert ("DJANGO_ALLOWED_HOSTS must name the site's host names (loo.example.org) when "
            "DJANGO_DEBUG is off") in done.stderr, done.stderr[-300:]


@pytest.mark.parametrize("name", ["LOO_DB_CONN_MAX_AGE", "LOO_NUM_PROXIES", "LOO_HSTS_SECONDS"])
def test_a_negative_number_setting_is_named(name):
    # LOO_NUM_PROXIES=-1 made every login with an X-Forwarded-For a 500 (DRF reads past the
    # header's addresses); LOO_HSTS_SECONDS=-1 sent "max-age=-1", which browsers ignore
    done = _manage("check", **_production(**{name: "-1"}))
    assert done.returncode != 0
    assert f"{name} must be 0 or more, not -1" in done.stderr, done.stderr[-300:]


@pytest.mark.parametrize("host", ["https://loo.example.org", "loo.example.org/", "loo example"])
def test_a_host_name_written_as_a_url_is_named(host):
    # Django compares the Host header with each entry: a URL matches none, so every request
    # would be a 400 the error log leaves out
    done = _manage("check", **_production(DJANGO_ALLOWED_HOSTS=f"www.example.org,{host}"))
    assert done.returncode != 0
    assert (f"DJANGO_ALLOWED_HOSTS names host names (loo.example.org), not {host!r}"
            in done.stderr), done.stderr[-300:]


def test_without_a_secret_key_production_refuses_to_start():
    env = _production()
    del env["DJANGO_SECRET_KEY"]
    done = _manage("check", **env)
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in done.stderr


@pytest.mark.parametrize("key", ["change-me", "x" * 60, "a-short-but-varied-key-0123",
                                 "django-insecure-" + "k3y-m4d3-by-st4rtpr0j3ct-0123456789abcdef"])
def test_a_placeholder_or_weak_secret_key_is_refused(key):
    # env.example's placeholder left in place would otherwise pass check --deploy with a warning
    done = _manage("check", **_production(DJANGO_SECRET_KEY=key))
    assert done.returncode != 0
    assert "a random value of at least 50 characters" in done.stderr


def test_the_development_default_stays_plain_http():
    done = _manage("shell", "-v", "0", "-c", "from django.conf import settings as s; "
                   "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.SECURE_SSL_REDIRECT)")
    assert done.stdout.split("\n")[0] == "True False False"


def test_another_host_is_a_400_that_fills_no_log():
    # scanners send any Host: the access log has the 400; the error log stays readable
    code = ("from django.test import Client; "
            "print(Client().get('/', HTTP_HOST='scanner.example').status_code)")
    done = _manage("shell", "-v", "0", "-c", code, **_production())
    assert done.stdout.strip() == "400"
    assert "Invalid HTTP_HOST" not in done.stderr and "Traceback" not in done.stderr


def test_the_prune_timer_runs_a_prune_command_manage_py_accepts(tmp_path):
    timer = (ROOT / "deploy" / "loo-ledger-prune.timer").read_text()
    assert "Unit=loo-ledger-prune.service" in timer
    service = (ROOT / "deploy" / "loo-ledger-prune.service").read_text()
    exec_start = next(line for line in service.splitlines() if line.startswith("ExecStart="))
    args = exec_start.split("manage.py ", 1)[1].split()
    assert args[0] == "prune_pdfs"
    done = _manage(*args, "--dry-run", LOO_VAR_DIR=str(tmp_path))  # an empty state directory
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Would remove 0 PDF(s) and 0 marker(s), 0 bytes" in done.stdout


@pytest.mark.parametrize("url", ["", " "])
def test_an_empty_database_url_is_the_sqlite_default(url, tmp_path):
    # `DATABASE_URL=` in a shell or an env file means "not set", as for CELERY_BROKER_URL
    code = "from django.conf import settings as s; print(s.DATABASES['default']['NAME'])"
    done = _manage("shell", "-v", "0", "-c", code, DATABASE_URL=url, LOO_VAR_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "db.sqlite3")


def test_the_sqlite_default_lets_readers_read_while_a_writer_works(tmp_path):
    # A long import or correction holds the write lock for seconds: in SQLite's rollback
    # journal an exclusive writer shuts every reader out ("database is locked"); in its
    # write-ahead log readers go on reading the last committed state.
    code = (
        "import sqlite3; from django.db import connection as c; cur = c.cursor(); "
        "print(cur.execute('PRAGMA journal_mode').fetchone()[0]); "
        "cur.execute('CREATE TABLE pool (chips INTEGER)'); "
        "cur.execute('INSERT INTO pool VALUES (12)'); "
        "cur.execute('BEGIN EXCLUSIVE'); cur.execute('UPDATE pool SET chips = 15'); "
        "reader = sqlite3.connect(c.settings_dict['NAME'], timeout=0); "
        "print(reader.execute('SELECT chips FROM pool').fetchone()[0])"
    )
    done = _manage("shell", "-v", "0", "-c", code, LOO_VAR_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["wal", "12"]


def test_the_proxys_body_limit_lets_a_session_file_at_the_imports_cap_through():
    # nginx's own 413 (an HTML page) must not refuse a file the service takes: the cap, and
    # room for an upload's multipart framing
    from games.services import limits

    readme = (ROOT / "deploy" / "README.md").read_text()
    [megabytes] = re.findall(r"client_max_body_size (\d+)m;", readme)
    assert int(megabytes) * limits.MIB >= limits.max_file_bytes() + 64 * 1024
    assert f"session files up to {limits.max_file_bytes() // limits.MIB} MiB" in readme


# --- the environment file: what it names is what the service reads ---------------------------

_READS = re.compile(r"""(?:os\.environ\.get|env_[a-z_]+)\(\s*["']([A-Z][A-Z0-9_]*)["']""")


def _variables_read() -> set[str]:
    """Every variable the settings and gunicorn's configuration read."""
    sources = [ROOT / "loo_ledger" / "settings.py", ROOT / "deploy" / "gunicorn.conf.py"]
    return {name for source in sources for name in _READS.findall(source.read_text())}


def _variables_in_env_example() -> set[str]:
    """Every variable env.example sets, or shows commented out with its default."""
    text = (ROOT / "deploy" / "env.example").read_text()
    return set(re.findall(r"^#? ?([A-Z][A-Z0-9_]*)=", text, re.MULTILINE))


def test_env_example_names_every_variable_the_service_reads_and_no_other():
    read, named = _variables_read(), _variables_in_env_example()
    assert {"DJANGO_SECRET_KEY", "CACHE_URL", "BIND", "WEB_CONCURRENCY"} <= read  # the scan works
    assert read - named == set(), "read by the service but missing from deploy/env.example"
    assert named - read == set(), "in deploy/env.example but read by nothing"


def test_env_example_puts_no_comment_after_a_value():
    # systemd's EnvironmentFile keeps "false   # why" as the value, where the shell of step 6
    # reads "false": the two would disagree
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        if re.match(r"#? ?[A-Z][A-Z0-9_]*=", line):
            assert "#" not in line.lstrip("# ").split("=", 1)[1], line


def test_every_variable_of_the_settings_table_is_in_env_example():
    readme = (ROOT / "deploy" / "README.md").read_text()
    table = readme.split("## Settings (environment)", 1)[1].split("\n## ", 1)[0]
    in_table = set(re.findall(r"`([A-Z][A-Z0-9_]{2,})`", table))
    assert {"DJANGO_SECRET_KEY", "BIND"} <= in_table
    assert in_table - _variables_in_env_example() == set()


def test_host_lists_ignore_the_spaces_after_the_commas():
    code = "from django.conf import settings as s; print(s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS)"
    done = _manage("shell", "-v", "0", "-c", code, **_production(
        DJANGO_ALLOWED_HOSTS="loo.example.org, www.loo.example.org ,",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://loo.example.org, https://www.loo.example.org"))
    assert done.stdout.split("\n")[0] == (
        "['loo.example.org', 'www.loo.example.org'] "
        "['https://loo.example.org', 'https://www.loo.example.org']"), done.stderr


def test_a_log_level_in_small_letters_is_read():
    done = _manage("shell", "-v", "0", "-c", "import logging; "
                   "print(logging.getLevelName(logging.getLogger().level))", LOG_LEVEL="info")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "INFO"


# --- the systemd units ---------------------------------------------------------------------

UNITS = ("loo-ledger-web.service", "loo-ledger-worker.service", "loo-ledger-prune.service")


def _unit(name: str) -> dict[str, list[str]]:
    """A unit file's settings, each key with its values in order (a key may repeat)."""
    out: dict[str, list[str]] = {}
    for line in (ROOT / "deploy" / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def _seconds(value: str) -> int:
    """A systemd time span of this form: ``630``, ``630s``, ``11min``, ``1h``."""
    number, unit = re.fullmatch(r"(\d+)\s*(s|min|h)?", value).groups()
    return int(number) * {None: 1, "s": 1, "min": 60, "h": 3600}[unit]


def test_a_stop_lets_the_worker_finish_its_tasks():
    # systemd's default KillMode (control-group) sends TERM to the pool processes too, which
    # die mid-task at once (celery resets their TERM handler): only the main process may get it
    from django.conf import settings

    from games.imports.tasks import import_session
    from games.tasks import render_pdf

    worker = _unit("loo-ledger-worker.service")
    assert worker["KillMode"] == ["mixed"]
    longest = settings.LOO_LONGEST_TASK_SECONDS
    assert max(t.soft_time_limit for t in (import_session, render_pdf)) <= longest
    assert _seconds(worker["TimeoutStopSec"][0]) > longest


def test_a_task_that_outlives_its_soft_limit_is_stopped():
    # the soft limit is an exception raised in the task's Python code: a task stuck in C (a
    # font library's layout) or one that catches it runs on, holding a pool process for ever,
    # and past TimeoutStopSec. The hard limit ends its process; the longest a task may run is
    # that, which the unit's TimeoutStopSec and the broker's visibility timeout outlast.
    from django.conf import settings

    from games.imports.tasks import import_session
    from games.tasks import render_pdf

    for task in (import_session, render_pdf):
        assert task.soft_time_limit < task.time_limit <= settings.LOO_LONGEST_TASK_SECONDS, task
    assert settings.LOO_LONGEST_TASK_SECONDS == max(t.time_limit for t in (import_session,
                                                                           render_pdf))


def test_a_job_of_a_killed_worker_is_handed_out_again_but_never_while_it_runs():
    # the whole worker killed: its unacknowledged message comes back after the visibility
    # timeout (an hour by Redis's default); one that came back while the task still ran would
    # run twice at once
    from django.conf import settings

    from games.imports.tasks import import_session
    from games.tasks import render_pdf

    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert settings.LOO_LONGEST_TASK_SECONDS < timeout <= 20 * 60
    for task in (import_session, render_pdf):
        assert task.acks_late
        assert task.reject_on_worker_lost or settings.CELERY_TASK_REJECT_ON_WORKER_LOST


def test_every_unit_runs_as_the_service_user_with_the_same_hardening():
    first = _unit(UNITS[0])
    hardening = {k: v for k, v in first.items() if k.startswith(("Protect", "Private", "Restrict"))
                 or k in {"NoNewPrivileges", "LockPersonality", "UMask", "StateDirectoryMode"}}
    assert hardening["UMask"] == ["0027"] and hardening["NoNewPrivileges"] == ["yes"]
    assert hardening["ProtectSystem"] == ["full"]  # /opt/loo-ledger stays the service's own
    for name in UNITS:
        unit = _unit(name)
        assert unit["User"] == ["loo"] and unit["WorkingDirectory"] == ["/opt/loo-ledger"]
        assert unit["EnvironmentFile"] == ["/etc/loo-ledger.env"]
        assert unit["StateDirectory"] == ["loo-ledger"]
        assert {k: unit.get(k) for k in hardening} == hardening, name
        for command in unit.get("ExecStartPre", []) + unit["ExecStart"]:
            assert command.startswith("/opt/loo-ledger/.venv/bin/"), command


def test_the_workers_pool_processes_come_from_the_environment_file():
    # a --concurrency on the unit's command line would override the setting, whatever the
    # environment file says
    worker = _unit("loo-ledger-worker.service")
    [command] = worker["ExecStart"]
    assert command.split()[1:4] == ["-A", "loo_ledger", "worker"]
    assert "--concurrency" not in command and " -c" not in command
    assert "\n# LOO_WORKER_CONCURRENCY=2\n" in (ROOT / "deploy" / "env.example").read_text()
    code = "from loo_ledger.celery import app; print(app.conf.worker_concurrency)"
    default = _manage("shell", "-v", "0", "-c", code, **_production())
    assert default.stdout.strip() == "2", default.stdout + default.stderr  # as the unit had it
    three = _manage("shell", "-v", "0", "-c", code, **_production(LOO_WORKER_CONCURRENCY="3"))
    assert three.stdout.strip() == "3", three.stdout + three.stderr
    none = _manage("check", **_production(LOO_WORKER_CONCURRENCY="0"))
    assert none.returncode != 0
    assert "LOO_WORKER_CONCURRENCY must be 1 or more, not 0" in none.stderr


@pytest.mark.parametrize("name", ["loo-ledger-web.service", "loo-ledger-worker.service"])
def test_a_long_running_unit_restarts_after_a_pause(name):
    # without one, five failures in ten seconds (PostgreSQL not up yet) stop restarts for good
    unit = _unit(name)
    assert unit["Restart"] == ["on-failure"]
    assert _seconds(unit["RestartSec"][0]) >= 2


# --- a backing service down at request time: a 503 saying which, never a 500 -----------------

DEAD_REDIS = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": "redis://127.0.0.1:1/9",  # nothing listens on port 1
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}


def test_logins_while_the_cache_is_down_are_a_503(club, owner_client):
    from django.test import override_settings
    from rest_framework.test import APIClient

    with override_settings(CACHES=DEAD_REDIS):  # (the settings fixture would outlive the
        # conftest's cache clearing, which then meets the dead Redis)
        token = APIClient().post("/api/v1/auth/token/", {"username": "olga", "password": "x"})
        admin = APIClient().post("/admin/login/", {"username": "olga", "password": "x"})
        # a client holding a token goes on: only logins count tries
        assert owner_client.get("/api/v1/clubs/oak/sessions/").status_code == 200
    assert token.status_code == 503 and token["Retry-After"] == "5"
    body = token.json()
    assert (body["code"], body["title"]) == ("service-unavailable", "Service unavailable")
    assert body["detail"].startswith("The login-limit cache cannot be reached just now")
    assert admin.status_code == 503 and admin["Retry-After"] == "5"
    assert "login-limit cache cannot be reached" in admin.content.decode()


def _lost_database(sqlstate: str | None):
    """What Django raises when PostgreSQL is gone (psycopg's error, wrapped)."""
    import psycopg
    from django.db import OperationalError

    cause = psycopg.errors.lookup(sqlstate)("the server went away") if sqlstate else \
        psycopg.OperationalError('connection failed: connection to server at "127.0.0.1", '
                                 "port 5432 failed: Connection refused")
    try:
        raise OperationalError(str(cause)) from cause
    except OperationalError as exc:
        return exc


@pytest.mark.parametrize("sqlstate, service", [
    (None, "database"),          # refused: the server is down
    ("57P01", "database"),       # admin_shutdown: a restart ended the connection
    ("57P03", "database"),       # cannot_connect_now: starting up
    ("08006", "database"),       # connection_failure
    ("40P01", None),             # a deadlock is the server answering: not an outage
    ("55P03", None),             # lock_not_available
])
def test_which_database_errors_are_an_outage(sqlstate, service):
    from loo_ledger.problems import unreachable_service

    assert unreachable_service(_lost_database(sqlstate)) == service


def test_a_lost_database_is_a_503_on_the_api_and_on_a_page(club, owner_client, monkeypatch):
    from django.test import Client

    import accounts.tenancy
    import games.reports.web

    def gone(*args, **kwargs):
        raise _lost_database(None)

    monkeypatch.setattr(accounts.tenancy, "resolve_membership", gone)
    monkeypatch.setattr(games.reports.web, "resolve_membership", gone)
    api = owner_client.get("/api/v1/clubs/oak/sessions/")
    assert api.status_code == 503 and api["Retry-After"] == "5", api.content
    assert api.json()["code"] == "service-unavailable"
    assert api.json()["detail"].startswith("The database cannot be reached just now")
    browser = Client()
    browser.force_login(club.members.get(name="olga").user)
    page = browser.get("/clubs/oak/results/")
    assert page.status_code == 503 and page["Retry-After"] == "5"
    assert page.content.decode().startswith("The database cannot be reached just now")


@contextmanager
def _silent_port() -> Iterator[int]:
    """A port whose server takes connections and never says a word."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        yield silent.getsockname()[1]


def test_a_redis_that_never_answers_fails_a_login_within_seconds():
    # a listening socket nobody reads: without socket timeouts a login would hang its gunicorn
    # worker until the worker's own timeout killed it (a minute)
    with _silent_port() as port:
        code = ("import time; from django.core.cache import cache; t = time.monotonic()\n"
                "try: cache.get('login')\n"
                "except Exception as exc: print(type(exc).__name__)\n"
                "print(time.monotonic() - t < 10)")
        done = _manage("shell", "-v", "0", "-c", code, CACHE_URL=f"redis://127.0.0.1:{port}/9")
    assert done.stdout.split() == ["TimeoutError", "True"], done.stdout + done.stderr


def test_a_database_that_never_answers_fails_a_request_within_seconds():
    # a PostgreSQL host that accepts the connection and says nothing (a hung server, a
    # half-open route): without a connect timeout psycopg waits for ever, past gunicorn's
    # 60-second timeout, which kills the worker; the client would get the proxy's 502, not the
    # documented 503
    with _silent_port() as port:
        code = ("import time; from django.db import connection; "
                "from loo_ledger.problems import unreachable_service; t = time.monotonic()\n"
                "try: connection.ensure_connection()\n"
                "except Exception as exc: print(type(exc).__name__, unreachable_service(exc))\n"
                "print(time.monotonic() - t < 15)")
        done = _manage("shell", "-v", "0", "-c", code,
                       DATABASE_URL=f"postgres://loo@127.0.0.1:{port}/loo_ledger")
    assert done.stdout.split() == ["OperationalError", "database", "True"], done.stdout + done.stderr


def test_a_connect_timeout_in_the_database_url_is_kept():
    code = "from django.conf import settings as s; print(s.DATABASES['default']['OPTIONS'])"
    url = "postgres://loo@127.0.0.1:5432/loo_ledger"
    default = _manage("shell", "-v", "0", "-c", code, DATABASE_URL=url)
    assert default.stdout.strip() == "{'connect_timeout': 5}", default.stdout + default.stderr
    own = _manage("shell", "-v", "0", "-c", code, DATABASE_URL=url + "?connect_timeout=20")
    assert own.stdout.strip() == "{'connect_timeout': 20}", own.stdout + own.stderr
