"""gunicorn settings for a department's server: ``gunicorn -c deploy/gunicorn.conf.py``.

One gevent worker per process, as Flask-SocketIO requires (a Socket.IO
client's requests must all reach the process that holds its session); for
more processes run several on different ports behind nginx with ``ip_hash``
and a message queue (deploy/nginx.conf). Environment:

- ``BIND`` (default ``127.0.0.1:8000``): where to listen;
- ``ADVSEARCH_TRUSTED_HOSTS`` (JSON list): the public host names (DNS
  rebinding is refused for any other), e.g. ``'["search.cs.example.edu"]'``;
- ``ADVSEARCH_*``: any other setting of ``app.web.DEFAULTS``.
"""
import os
import resource

# Not imported from app.budget (Connections.connections): the master must
# import nothing that gevent patches later in the worker (ssl, sockets).
CONNECTIONS = 4000


def _open_files(wanted: int) -> int:
    """Raise the soft limit of open files towards ``wanted`` (up to the hard
    limit; the worker inherits it); the connections that then fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft - 64    # descriptors of the process's own (logs, store, Redis)


wsgi_app = "app.web.wsgi:app"
bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = 1                       # one per process: Flask-SocketIO's sessions live in it
# gevent, with a cap on the connections of one address (connections_per_address)
worker_class = "app.gworker.FairGeventWorker"
# Open connections, hence file descriptors, at most: far above one address's share.
_wanted = int(os.environ.get("WORKER_CONNECTIONS", CONNECTIONS))
worker_connections = max(64, min(_wanted, _open_files(_wanted + 64)))
keepalive = 10                    # seconds to send a request's headers (silent or slow: closed)
timeout = 60                      # a worker that stops answering its master is restarted
graceful_timeout = 10
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"                   # structured access log: one JSON object a line
access_log_format = ('{"time": "%(t)s", "remote": "%(h)s", "method": "%(m)s", '
                     '"path": "%(U)s", "query": "%(q)s", "status": %(s)s, "bytes": "%(B)s", '
                     '"ms": %(M)s, "agent": "%(a)s"}')
errorlog = "-"
loglevel = "info"


def post_fork(server, worker):
    from app.web import memory

    memory.limit_arenas()         # freed memory goes back to the system (app/web/memory.py)


def post_worker_init(worker):
    from app.web import memory

    memory.warm_up(worker.wsgi)   # first-use objects made now, not amid a load
    memory.freeze_startup()       # the app is loaded: full collections skip it from now on
