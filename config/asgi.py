"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets pass through the session and auth middleware (pupils are known by
their session, never by what a message says) and an origin check on scheme, host and port (``config/origin.py``).
"""

import gc
import os
import sys
from typing import Any

from django.core.asgi import get_asgi_application

# The event loop shares the GIL with the database thread and the render thread
# (cardgames/live_screens.py). With CPython's default 5 ms switch interval, every
# time the loop waited for the GIL behind them it lost up to 5 ms, and a school's
# worth of sockets queued for seconds; 1 ms keeps the loop responsive
# (docs/performance.md).
sys.setswitchinterval(0.001)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from config.origin import SameOriginValidator  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.sqlite_wal import checkpoints_start  # noqa: E402

# Load the URLconf now, not inside the first websocket message that needs a
# URL: a child's first move should not pay for importing every view.
get_resolver().url_patterns  # noqa: B018

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
_checkpointing = False


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The router, and on the first connection of a worker on the embedded
    SQLite file: its log checkpointed beside the moves, not by one of them
    (``config/sqlite_wal.py``). Not at import: a test imports this module
    before its database, in memory, replaces the file."""
    global _checkpointing
    if not _checkpointing and scope["type"] in ("http", "websocket"):
        _checkpointing = True
        checkpoints_start()
    await router(scope, receive, send)

# The garbage collector's full passes stop every thread of the worker while
# they walk every object. Under a school's load they came several times a
# minute, each long enough to make the slowest moves of the benchmark those
# that waited behind one. What the worker loaded to start (Django, the URLconf,
# the app) never becomes garbage: it is frozen out of the collector's walk.
# And a full pass now waits for 200 younger passes instead of 10 (about one
# every few minutes at full load): reference counting frees almost everything,
# the young passes free cycles, and a full pass is left only what survived
# both.
gc.freeze()
gc.set_threshold(*gc.get_threshold()[:2], 200)
