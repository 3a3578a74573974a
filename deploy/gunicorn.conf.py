"""gunicorn settings for production: `gunicorn -c deploy/gunicorn.conf.py loo_ledger.wsgi`."""
import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
timeout = 60
accesslog = "-"
errorlog = "-"
# the proxy in front sets X-Forwarded-For: log the client it names, not the proxy; last, the
# request's id (its answer's X-Request-ID), which every line logged for the request carries too
access_log_format = ('%({x-forwarded-for}i)s %(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" '
                     '"%(a)s" %({x-request-id}o)s')
# gunicornc's control socket is not used here; left on, two instances run by one user share
# $HOME/.gunicorn/gunicorn.ctl, and a service user without a home logs a warning
control_socket_disable = True
