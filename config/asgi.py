"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets pass through the session and auth middleware (pupils are known by
their session, never by what a message says) and an origin check on scheme, host and port (``config/origin.py``).
"""

import os
import sys

from django.core.asgi import get_asgi_application

# The event loop shares the GIL with the database thread and the render thread
# (cardgames/live_screens.py). With CPython's default 5 ms switch interval, every
# time the loop waited for the GIL behind them it lost up to 5 ms, and a school's
# worth of sockets queued for seconds; 1 ms keeps the loop responsive (measured:
# move p50 ~80 ms instead of ~400 ms with 160 sockets on 2 cores).
sys.setswitchinterval(0.001)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from config.origin import SameOriginValidator  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

# Load the URLconf now, not inside the first websocket message that needs a
# URL: a child's first move should not pay for importing every view.
get_resolver().url_patterns  # noqa: B018

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
