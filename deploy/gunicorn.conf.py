"""gunicorn settings for production: `gunicorn -c deploy/gunicorn.conf.py loo_ledger.wsgi`."""
import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
timeout = 60
accesslog = "-"
errorlog = "-"
