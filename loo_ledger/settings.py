"""Settings read from the environment.

Embedded default: SQLite in ./var, Celery tasks run eagerly in-process.
Real components when configured: DATABASE_URL (PostgreSQL via psycopg 3), CELERY_BROKER_URL (Redis).
"""
import os
from pathlib import Path

import dj_database_url
from whitenoise.compress import Compressor

from loo_ledger.environment import (
    env_bool,
    env_dir,
    env_int,
    env_list,
    env_log_level,
    env_rate,
    refuse,
)

BASE_DIR = Path(__file__).resolve().parent.parent
# static: whitenoise warns on every request without it
VAR_DIR = env_dir("LOO_VAR_DIR", BASE_DIR / "var", "static")


DEV_SECRET_KEY = "dev-only-insecure-key-change-me"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", DEV_SECRET_KEY)
DEBUG = env_bool("DJANGO_DEBUG", True)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS") or (["127.0.0.1", "localhost", "testserver"]
                                                     if DEBUG else [])
if not ALLOWED_HOSTS:
    # else every request the proxy passes is a 400 that the error log leaves out (LOGGING)
    refuse("DJANGO_ALLOWED_HOSTS must name the site's host names (loo.example.org) when "
           "DJANGO_DEBUG is off, comma-separated (see deploy/env.example)")
for _host in ALLOWED_HOSTS:
    if "/" in _host or any(c.isspace() for c in _host):  # a URL, or names not comma-separated
        refuse(f"DJANGO_ALLOWED_HOSTS names host names (loo.example.org), not {_host!r}: "
               "no scheme, no path, and a comma between two")
# Django's own test of a strong key (check --deploy's W009 only warns): env.example's
# placeholder, or any short key, must not reach production unnoticed
if not DEBUG and (SECRET_KEY == DEV_SECRET_KEY or len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5
                  or SECRET_KEY.startswith("django-insecure-")):
    refuse("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off, to a random value of at "
           "least 50 characters: python3 -c 'import secrets; print(secrets.token_urlsafe(50))' "
           "(see deploy/env.example)")

# Served over TLS only (the default once DEBUG is off): secure cookies, HTTPS redirects and HSTS.
# Behind the TLS proxy (LOO_NUM_PROXIES > 0) the proxy's X-Forwarded-Proto says the scheme.
LOO_HTTPS = env_bool("LOO_HTTPS", not DEBUG)
if LOO_HTTPS:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("LOO_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("LOO_HSTS_SECONDS", 3600)  # raise once it works
    # whether every subdomain is TLS-only, and preloading, are the domain owner's calls: off
    # unless asked for, and then `check --deploy` need not warn about them
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("LOO_HSTS_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("LOO_HSTS_PRELOAD", False)
    SILENCED_SYSTEM_CHECKS = ["security.W005"] * (not SECURE_HSTS_INCLUDE_SUBDOMAINS) + \
        ["security.W021"] * (not SECURE_HSTS_PRELOAD)
    if env_int("LOO_NUM_PROXIES", 0) > 0:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    "games.imports",
]

MIDDLEWARE = [
    # X-Request-ID on every answer, the same id on every line logged for it
    "loo_ledger.request_ids.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "loo_ledger.problems.ProblemMiddleware",
    "loo_ledger.slashes.EitherSlashMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # every answer for a signed-in user (pages, report files, the API): Cache-Control: private
    "loo_ledger.private_answers.PrivateAnswersMiddleware",
    "accounts.login_limits.SessionLoginLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # no policy unless a view sets one: the own pages do (loo_ledger/page_policy.py)
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "loo_ledger.urls"
WSGI_APPLICATION = "loo_ledger.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# An empty DATABASE_URL (``DATABASE_URL=`` in a shell or an env file) counts as unset, as an
# empty CELERY_BROKER_URL or CACHE_URL does: the embedded SQLite default.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        # seconds a worker keeps its database connection between requests: a new PostgreSQL
        # connection costs ~3 ms, a tenth of recording a deal (bench/service.py). 0 = one per
        # request; production sets it (deploy/env.example), checked before reuse
        conn_max_age=env_int("LOO_DB_CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # a server that takes the connection and never answers (hung, or a half-open route) fails
    # the request in seconds, as a 503 (loo_ledger/problems.py), where psycopg would wait for
    # ever and gunicorn kill the worker after its 60 s; the URL's own ?connect_timeout= wins
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Serialise writers instead of failing with "database is locked" under concurrent requests,
    # and keep readers reading while a writer works (a long import, a correction re-settling a
    # session): the write-ahead log lets the pages and the API read the last committed state.
    # (A read of several queries that must agree begins DEFERRED instead: ledger.one_moment.)
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;",
    })

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]  # the project's own: the browsable API's fixes
MEDIA_ROOT = VAR_DIR / "media"
# Development and the tests (DEBUG on when the settings load) serve the apps' files where they
# lie, under their plain names: no collectstatic. Production serves what `collectstatic` put in
# STATIC_ROOT, under names holding a hash of their content, which whitenoise lets browsers and
# proxies keep for ten years ("immutable"): a deploy that changes a file changes its URL.
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage" if DEBUG
                    else "loo_ledger.staticfiles.HashedStaticFilesStorage"},
}
# collectstatic runs at every start of the web unit: it keeps only the hashed copies (half the
# files to compress) and leaves source maps uncompressed (6 MB only a browser's developer tools
# ask for, half of brotli's work): 8 CPU-seconds instead of 38 (deploy/README.md, "Static files")
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# The most of a request body read into memory (Django's default, named): a JSON body, a form.
# A deal or a correction is far below it, a record at its bound (games/services/limits.py,
# 16 KiB) even with every character sent as an ASCII escape, so an oversized record is a 400
# naming that bound; past 2.5 MB a body is a 413. A session file goes up raw or as an upload,
# which this does not count: the import's own cap (limits.max_file_bytes) bounds it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

LOGIN_URL = "/api-auth/login/"
LOGIN_REDIRECT_URL = LOGOUT_REDIRECT_URL = "/"  # the home page, whichever form was used

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",  # DRF's, a NUL refused as malformed
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "loo_ledger.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "loo_ledger.problems.exception_handler",
    # DRF's two, the browsable API's naming the page's language (loo_ledger/browsable.py)
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "loo_ledger.browsable.BrowsableAPIRenderer",
    ],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "loo_ledger.negotiation.ProblemContentNegotiation",
    "DEFAULT_PARSER_CLASSES": [
        "loo_ledger.parsers.StorableJSONParser",
        "rest_framework.parsers.FormParser",
        "loo_ledger.parsers.ReadableMultiPartParser",
    ],
    # login tries per client address: the token endpoint, the password change, and the admin's
    # and browsable API's login pages, one count (accounts/login_limits.py)
    "DEFAULT_THROTTLE_RATES": {"login": env_rate("LOO_LOGIN_RATE", "10/min")},
    # proxies in front of the service (1 behind nginx/Caddy): the client address is then read
    # from X-Forwarded-For; 0 trusts no such header
    "NUM_PROXIES": env_int("LOO_NUM_PROXIES", 0),
}

# Rate-limit counters (and any other cache use): Redis when CACHE_URL is set, so that every
# web worker counts together; otherwise in-process memory. A Redis that is down or never
# answers fails a login within seconds, as a 503 (loo_ledger/problems.py), not at gunicorn's
# worker timeout.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL,
                "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2}}
    if CACHE_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "loo-ledger API",
    "DESCRIPTION": "Hand-history and settlement ledger for clubs that play Loo.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "loo_ledger.problems.openapi_problem_hook",
    ],
}

# Celery: eager in-process unless a broker is configured.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip()
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
#: starts of one job at most (an import each time it is queued, a PDF rendering). Late ack hands
#: the message of a worker killed mid-job (the OOM killer on a file or report too large, a crash
#: in a C library) out again: one interrupted by a restart then finishes, but one that kills its
#: worker every time would do so for ever. The delivery after the last start fails the job
#: instead (games.imports.services, games.reports.pdf), saying why.
LOO_TASK_MAX_STARTS = 3
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
#: the worker's pool processes, each running one task at a time (a 1,000-deal session's PDF
#: takes some 370 MB): the worker unit reads it from the environment file, not its command line
CELERY_WORKER_CONCURRENCY = env_int("LOO_WORKER_CONCURRENCY", 2, least=1)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
#: seconds a task may run at most: the import's hard time limit (games/imports/tasks.py), the
#: longest of the tasks'; the worker unit's TimeoutStopSec and the broker's visibility timeout
#: below outlast it (tests/test_deploy_settings.py)
LOO_LONGEST_TASK_SECONDS = 630
# A Redis that accepts connections but never answers must fail fast, not hang a request.
# visibility_timeout: a message a worker took and never acknowledged (the whole worker killed
# mid-task: SIGKILL, the OOM killer, a power cut) goes back to the queue this long after it was
# taken (Redis's default is an hour). It outlasts the longest task, so a task still running is
# not handed out twice; if one were, both runs are safe (the import locks its job, a PDF is
# written whole under its report's fingerprint).
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 5, "max_retries": 2,
                                   "visibility_timeout": LOO_LONGEST_TASK_SECONDS + 300}
CELERY_TASK_IGNORE_RESULT = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # each line: its level, its logger and the request it was logged for (the journal adds
    # the time), so a traceback and the access log's line for its request can be found together
    "formatters": {"plain": {"format": "%(levelname)s %(name)s [%(request_id)s] %(message)s"}},
    "filters": {"request_id": {"()": "loo_ledger.request_ids.RequestIdFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain",
                             "filters": ["request_id"]},
                 "null": {"class": "logging.NullHandler"}},
    "root": {"handlers": ["console"], "level": env_log_level("LOG_LEVEL", "WARNING")},
    "loggers": {
        # a request for a host not in ALLOWED_HOSTS is answered 400 (and in the access log);
        # its traceback would fill the log with every scanner on the internet
        "django.security.DisallowedHost": {"handlers": ["null"], "propagate": False},
        # WeasyPrint and its font subsetting narrate every PDF at INFO (the worker's level)
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}
