"""gunicorn's gevent worker with a cap on the connections of one address
(deploy/gunicorn.conf.py names it): a client holding hundreds of WebSockets
cannot fill the process's ``worker_connections`` and make everyone else
time out. Over its address's share, a connection is answered 429 at once
and closed (app.web.fairshare); the cap comes from the app's budget
(``connections_per_address``), off behind a trusted proxy."""
from __future__ import annotations

from gunicorn.workers.ggevent import GeventWorker

from .fairshare import AddressSlots, refuse


class FairGeventWorker(GeventWorker):
    """:class:`GeventWorker` with :class:`~app.web.fairshare.AddressSlots`."""

    addresses: AddressSlots | None = None

    def load_wsgi(self):
        super().load_wsgi()
        from .serving import per_address_cap

        app = getattr(self.wsgi, "extensions", None) and self.wsgi
        self.addresses = AddressSlots(per_address_cap(app) if app else 0)

    def handle(self, listener, client, addr):
        address = addr[0] if isinstance(addr, tuple) and addr else ""
        slots = self.addresses
        if slots is not None and not slots.enter(address):
            refuse(client)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            if slots is not None:
                slots.leave(address)
