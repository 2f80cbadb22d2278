"""The WSGI app for gunicorn: ``gunicorn -c deploy/gunicorn.conf.py``
(which names ``app.web.wsgi:app``). Settings come from ``instance/config.py``
and ``ADVSEARCH_*`` environment variables (``ADVSEARCH_TRUSTED_HOSTS``,
``ADVSEARCH_BUDGET``, ``ADVSEARCH_MESSAGE_QUEUE``...), JSON where not a string."""
from app.web import create_app

app = create_app()
