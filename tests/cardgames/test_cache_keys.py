"""Issue 44, item 4 (the socket part): every cache key has a TTL, and a socket
refused at connect writes nothing.

The attack: 400 table sockets, each from a browser session with no seat at
the table, are all refused, but each first wrote a ``cardgames:sessiongen:*``
entry that never expired. On the local-memory cache they evicted other entries
(a rate counter, a report); on Redis they piled up forever (TTL -1).

Works on both caches: run against Redis with ``REDIS_URL`` set.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.cache import cache
from django.test import Client

from cardgames.models import Table
from classroom import services
from tests.cardgames.factories import fresh_channel_layer  # noqa: F401
from tests.factories import ClassSessionFactory, PupilFactory, TeacherFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]

REFUSED = 400


def _redis() -> Any | None:
    client = getattr(cache, "_cache", None)
    return client.get_client(None) if hasattr(client, "get_client") else None


def _keys() -> set[str]:
    """Every key in the cache (locmem's own dict, or Redis' keyspace without
    the channel layer's ``asgi:`` keys: Django's cache keys start ``:1:``)."""
    redis = _redis()
    if redis is not None:
        return {key.decode() for key in redis.keys(":1:*")}
    return set(cache._cache)  # type: ignore[attr-defined]


def _without_ttl(keys: set[str]) -> set[str]:
    redis = _redis()
    if redis is not None:
        return {key for key in keys if redis.ttl(key) == -1}
    expiry = cache._expire_info  # type: ignore[attr-defined]
    return {key for key in keys if expiry.get(key) is None}


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _socket(path: str, session_key: str) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"sessionid={session_key}".encode()),
    ]
    return WebsocketCommunicator(application, path, headers=headers)


def _lesson() -> dict[str, Any]:
    """A started table with two pupils (signed in through the real join flow),
    and a stranger teacher with a session of their own."""
    class_session = ClassSessionFactory(join_code="246810")
    pupils = [
        PupilFactory(school_class=class_session.school_class, display_name=n, picture_code=[1, 2])
        for n in ("Léo", "Inès")
    ]
    tablets = []
    for pupil in pupils:
        tablet = Client()
        tablet.post("/join", {"code": "246810"})
        tablet.post(f"/join/pupil/{pupil.pk}/", {"pick": ["1", "2"]})
        tablets.append(tablet)
    services.groups_make(class_session=class_session, size=2)
    table = services.tables_start(class_session=class_session).started[0]
    teacher = Client()
    teacher.force_login(class_session.school_class.teacher)
    stranger = Client()
    stranger.force_login(TeacherFactory())
    return {
        "session": class_session,
        "table": table,
        "tablets": tablets,
        "teacher": teacher,
        "stranger": stranger,
    }


def _browser_sessions(n: int) -> list[str]:
    """``n`` anonymous browser sessions (a browser that opened the keypad)."""
    keys = []
    for _ in range(n):
        store = SessionStore()
        store["typed"] = "1"
        store.save()
        keys.append(store.session_key or "")
    return keys


async def test_400_refused_table_sockets_write_no_cache_key() -> None:
    ctx = await database_sync_to_async(_lesson)()
    keys = await database_sync_to_async(_browser_sessions)(REFUSED)
    before = await database_sync_to_async(_keys)()
    for key in keys:
        sock = _socket(f"/ws/table/{ctx['table'].pk}/", key)
        connected, _code = await sock.connect()
        assert not connected
    assert await database_sync_to_async(_keys)() == before


async def test_refused_teacher_pages_write_no_cache_key() -> None:
    """Another teacher's monitor and projector sockets are refused, and leave
    nothing behind either."""
    ctx = await database_sync_to_async(_lesson)()
    stranger = ctx["stranger"].cookies["sessionid"].value
    session_id = ctx["session"].pk
    before = await database_sync_to_async(_keys)()
    for path in (
        f"/ws/teacher/sessions/{session_id}/monitor/",
        f"/ws/projector/{session_id}/",
        f"/ws/table/{ctx['table'].pk}/",
    ):
        connected, _code = await _socket(path, stranger).connect()
        assert not connected
    assert await database_sync_to_async(_keys)() == before


async def test_every_cache_key_the_app_writes_expires() -> None:
    """Sockets granted (a pupil's table, the teacher's monitor and table), a
    tablet signed out, a password changed, a report drawn: every key written
    has a finite TTL."""
    ctx = await database_sync_to_async(_lesson)()
    teacher = ctx["teacher"].cookies["sessionid"].value
    socks = [
        _socket(f"/ws/table/{ctx['table'].pk}/", ctx["tablets"][0].cookies["sessionid"].value),
        _socket(f"/ws/table/{ctx['table'].pk}/", teacher),
        _socket(f"/ws/teacher/sessions/{ctx['session'].pk}/monitor/", teacher),
    ]
    for sock in socks:
        assert (await sock.connect())[0]
        await sock.receive_from(timeout=5)

    def changes() -> None:
        from classroom.models import TabletLogin

        services.tablet_sign_out(login=TabletLogin.objects.order_by("pk").first())
        teacher_user = get_user_model().objects.get(pk=ctx["session"].school_class.teacher_id)
        teacher_user.set_password("encore-un-autre-mot-de-passe")
        teacher_user.save()
        other = Client()
        other.force_login(teacher_user)
        response = other.get(f"/teacher/classes/{ctx['session'].school_class_id}/report/")
        assert response.status_code == 200

    await database_sync_to_async(changes)()
    for sock in socks:
        await sock.disconnect()
    keys = await database_sync_to_async(_keys)()
    assert any("sessiongen" in key for key in keys)
    assert any("usergen" in key for key in keys)
    assert await database_sync_to_async(_without_ttl)(keys) == set()
    assert await database_sync_to_async(Table.objects.count)() == 1
