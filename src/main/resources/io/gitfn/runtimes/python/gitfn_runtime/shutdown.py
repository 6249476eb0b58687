"""The runtime's HTTP server, with a way to let kept-alive clients leave before it stops."""

from cheroot import wsgi


class DrainingServer(wsgi.Server):
    """cheroot's WSGI server which, once `draining` is set, keeps no connection alive: each answer says
    `Connection: close` and its connection closes after it. cheroot's own stop closes idle kept-alive connections at
    once, which races with a client that has just sent its next request on one (that request gets no answer), so
    the runtime drains like this for a grace before it stops."""

    draining = False

    @property
    def can_add_keepalive_connection(self):
        # cheroot reads this for every answer it sends, to decide whether the connection stays open.
        return not self.draining and super().can_add_keepalive_connection
