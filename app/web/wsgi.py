"""The WSGI app for gunicorn: ``gunicorn -c deploy/gunicorn.conf.py``
(which names ``app.web.wsgi:app``). Settings come from the instance folder's
``config.py`` (``ADVSEARCH_INSTANCE``, default ``instance/``) and from
``ADVSEARCH_*`` environment variables (``ADVSEARCH_TRUSTED_HOSTS``,
``ADVSEARCH_BUDGET``, ``ADVSEARCH_MESSAGE_QUEUE``...), JSON where not a string."""
import os

from app.web import create_app

app = create_app(instance_path=os.environ.get("ADVSEARCH_INSTANCE") or None)
