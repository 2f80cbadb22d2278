"""gunicorn's gevent worker with a cap on the connections of one address
(deploy/gunicorn.conf.py names it): a client holding hundreds of WebSockets
cannot fill the process's ``worker_connections`` and make everyone else
time out. Over its address's share, a connection is answered 429 at once
and closed (app.web.fairshare); the cap comes from the app's budget
(``connections_per_address``), off behind a trusted proxy.

Outside ``app.web`` and importing it only in the worker: gunicorn's master
imports the worker class before it forks, and a master that imported the
web app (Flask, ssl, sockets) would leave gevent patching them too late."""
from __future__ import annotations

from gunicorn.workers.ggevent import GeventWorker


class FairGeventWorker(GeventWorker):
    """:class:`GeventWorker` with :class:`~app.web.fairshare.AddressSlots`."""

    addresses = None   # app.web.fairshare.AddressSlots, made once the app is loaded

    def load_wsgi(self):
        super().load_wsgi()
        from app.web.fairshare import AddressSlots
        from app.web.serving import per_address_cap

        app = getattr(self.wsgi, "extensions", None) and self.wsgi
        self.addresses = AddressSlots(per_address_cap(app) if app else 0)

    def handle(self, listener, client, addr):
        address = addr[0] if isinstance(addr, tuple) and addr else ""
        slots = self.addresses
        if slots is not None and not slots.enter(address):
            from app.web.fairshare import refuse

            refuse(client)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            if slots is not None:
                slots.leave(address)
