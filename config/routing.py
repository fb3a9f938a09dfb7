"""Every websocket route of the project, gathered from the apps."""

from cardgames.routing import websocket_urlpatterns as cardgames_routes
from classroom.routing import websocket_urlpatterns as classroom_routes

websocket_urlpatterns = [*cardgames_routes, *classroom_routes]
