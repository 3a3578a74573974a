"""The production settings of deploy/env.example pass Django's deployment checks, and the
service refuses to start without a secret key once DEBUG is off."""
from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
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


@pytest.mark.parametrize("name", ["LOO_DB_CONN_MAX_AGE", "LOO_NUM_PROXIES", "LOO_HSTS_SECONDS"])
def test_a_number_setting_that_is_not_a_number_is_named(name):
    done = _manage("check", **_production(**{name: "sixty"}))
    assert done.returncode != 0
    assert f"{name} must be a whole number, not 'sixty'" in done.stderr


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
