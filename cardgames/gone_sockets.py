"""A send to a tablet that has just gone is not an error.

A tablet sleeps, a pupil taps "that's not me", a session ends: the socket may
close while the server is still drawing what it was about to send. The ASGI
servers then refuse the send, each in its own way: uvicorn raises
``ClientDisconnected`` (an ``OSError``), Daphne (``runserver``) autobahn's
``Disconnected`` (a ``RuntimeError``), and Channels itself a ``RuntimeError``
once the close was sent. Left alone, that exception ends the consumer's task
with a traceback in the server log, for nothing anyone could fix: the next
connection shows the screen afresh from the database.
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)

def socket_gone(error: BaseException) -> bool:
    """Whether ``error`` only says the socket is closed. Anything else (a send
    before the handshake, a wrong message type) is a bug and is raised."""
    if isinstance(error, OSError):  # uvicorn's ClientDisconnected, a reset connection
        return True
    if isinstance(error, RuntimeError):
        text = str(error)
        return (
            type(error).__name__ == "Disconnected"  # autobahn (Daphne)
            or "after sending 'websocket.close'" in text  # uvicorn, our close was sent
            or "closed protocol" in text
        )
    return False


class GoneSocketMixin:
    """For a Channels websocket consumer: ``send`` and ``close`` on a socket that
    has already gone do nothing (logged at debug level) instead of raising; and
    once the socket's task has ended, the channel layer is told that its
    channel is closed (``config.channel_layer.RedisChannelLayer.channel_closed``),
    so messages that still come for it are not kept in the worker forever."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        finally:
            closed = getattr(getattr(self, "channel_layer", None), "channel_closed", None)
            channel = getattr(self, "channel_name", None)
            if closed is not None and channel:
                closed(channel)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)  # type: ignore[misc]
        except (OSError, RuntimeError) as error:
            if not socket_gone(error):
                raise
            logger.debug("%s: socket gone before a send (%r)", type(self).__name__, error)

    async def close(self, code: Any = None, reason: Any = None) -> None:
        try:
            await super().close(code=code, reason=reason)  # type: ignore[misc]
        except (OSError, RuntimeError) as error:
            if not socket_gone(error):
                raise
            logger.debug("%s: socket gone before its close (%r)", type(self).__name__, error)
