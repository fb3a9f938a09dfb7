"""The IDOR matrix: every route that takes an id, tried by the wrong people.

Routes are discovered from the URLconf and from ``config.routing``, so a new
view or consumer cannot escape: an id-like URL kwarg this file does not know
makes the test fail until someone says which object it names.

For each route, three intruders — another teacher, a pupil signed in to
another class, an anonymous visitor — must get exactly what a missing object
gives (same status, same body; a closed socket). A positive control proves the
fixture objects are the right ones: their owner does get in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from cardgames import services as cardgames_services
from cardgames.models import Table
from classroom import services
from classroom.models import TabletLogin
from classroom.services.parents import parent_link_create
from tests.factories import (
    AttendanceFactory,
    ClassSessionFactory,
    PupilFactory,
    TabletLoginFactory,
    TeacherFactory,
)

MISSING = 987654321

# URL kwargs that name an object, and the fixture key of the victim's object.
OBJECT_KWARGS = {
    "class_id": "class",
    "pupil_id": "pupil",
    "session_id": "session",
    "group_id": "group",
    "login_id": "login",
    "table_id": "table",
    "link_id": "parent_link",
}
# Routes that only serve an object in a given state get that object instead.
OBJECT_FOR_ROUTE = {"cardgames:replay": {"table_id": "finished_table"}}
# Kwargs that are not object ids, with the reason they are safe.
NOT_IDS = {
    "uidb64": "password reset: paired with a signed, expiring token",
    "token": "password reset token (signed by Django)",
    "link_token": "the class link: a 128-bit secret printed on the cards",
    "parent_token": "a parent link: a 192-bit secret, only its hash is stored (test_parents)",
}
# Namespaces guarded elsewhere.
SKIP_NAMESPACES = {"admin": "Django admin: staff only, its own permission checks"}

PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>")


@dataclass(frozen=True)
class Route:
    pattern: str
    name: str

    @property
    def kwargs(self) -> list[str]:
        return [m.group("name") for m in PARAM.finditer(self.pattern)]

    def url(self, values: dict[str, Any]) -> str:
        return "/" + PARAM.sub(lambda m: str(values[m.group("name")]), self.pattern)


def _walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[Route]:
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = p.namespace or namespace
            if ns in SKIP_NAMESPACES:
                continue
            yield from _walk(p.url_patterns, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern):
            yield Route(
                prefix + str(p.pattern), f"{namespace}:{p.name}" if namespace else str(p.name)
            )


def http_routes() -> list[Route]:
    return [r for r in _walk(get_resolver().url_patterns) if r.kwargs]


def ws_routes() -> list[Route]:
    from config.routing import websocket_urlpatterns

    return [r for r in _walk(websocket_urlpatterns) if r.kwargs]


def object_routes(routes: list[Route]) -> list[Route]:
    return [r for r in routes if any(k in OBJECT_KWARGS for k in r.kwargs)]


def test_every_route_kwarg_is_known() -> None:
    """A new kind of id in a URL must be added to this matrix on purpose."""
    unknown = {
        (route.pattern, kwarg)
        for route in http_routes() + ws_routes()
        for kwarg in route.kwargs
        if kwarg not in OBJECT_KWARGS and kwarg not in NOT_IDS
    }
    assert not unknown, f"add these kwargs to OBJECT_KWARGS or NOT_IDS: {sorted(unknown)}"


def test_the_matrix_sees_the_classroom_and_cardgames_routes() -> None:
    patterns = {r.pattern for r in object_routes(http_routes())}
    assert "teacher/classes/<int:class_id>/" in patterns
    assert "join/pupil/<int:pupil_id>/" in patterns
    assert "table/<int:table_id>/" in patterns
    assert "teacher/classes/<int:class_id>/report/" in patterns
    assert "teacher/pupils/<int:pupil_id>/report/" in patterns
    assert "teacher/parent-links/<int:link_id>/revoke/" in patterns
    ws = {r.pattern for r in object_routes(ws_routes())}
    assert "ws/projector/<int:session_id>/" in ws and "ws/table/<int:table_id>/" in ws


# ------------------------------------------------------------------ the world
def _pupil_client(pupil: Any, class_session: Any) -> Client:
    """A tablet signed in as ``pupil`` (what the join flow leaves in the session)."""
    client = Client()
    session = client.session
    session.update(
        {
            "player_key": pupil.player_key,
            "pupil_id": pupil.pk,
            "class_session_id": class_session.pk,
            "join_session_id": class_session.pk,
        }
    )
    session.save()
    TabletLoginFactory(class_session=class_session, pupil=pupil, session_key=session.session_key)
    return client


def build_world() -> dict[str, Any]:
    """The victim teacher's objects (one of every kind), and the intruders."""
    victim = TeacherFactory()
    class_session = ClassSessionFactory(school_class__teacher=victim)
    pupils = [AttendanceFactory(class_session=class_session).pupil for _ in range(2)]
    services.groups_make(class_session=class_session, size=2)
    services.tables_start(class_session=class_session)
    services.group_add(class_session=class_session)  # an unstarted group too
    group = class_session.groups.filter(table__isnull=True).first()
    table = Table.objects.get(group_key=class_session.group_key)
    finished = cardgames_services.table_create(
        game="chasse",
        seats=[
            cardgames_services.SeatSpec(player_key=pupils[0].player_key, display_name="x"),
            cardgames_services.bot_seat(level="easy", number=1),
        ],
        group_key=class_session.group_key,
        number=9,
    )
    cardgames_services.table_start(table=finished)
    Table.objects.filter(pk=finished.pk).update(status=Table.Status.FINISHED)

    owner_teacher = Client()
    owner_teacher.force_login(victim)
    owner_pupil = _pupil_client(pupils[0], class_session)
    login = TabletLogin.objects.filter(class_session=class_session).first()
    parent_link, _token = parent_link_create(pupil=pupils[0], expires_in_days=30)

    other_teacher = Client()
    other_teacher.force_login(TeacherFactory())
    other_session = ClassSessionFactory()
    other_pupil = _pupil_client(
        PupilFactory(school_class=other_session.school_class), other_session
    )

    return {
        "objects": {
            "class": class_session.school_class.pk,
            "pupil": pupils[0].pk,
            "session": class_session.pk,
            "group": group.pk,
            "login": login.pk,
            "table": table.pk,
            "finished_table": finished.pk,
            "parent_link": parent_link.pk,
        },
        "owners": {"teacher": owner_teacher, "pupil": owner_pupil},
        "intruders": {
            "another teacher": other_teacher,
            "a pupil of another class": other_pupil,
            "anonymous": Client(),
        },
    }


SIGNED_IN_TEACHERS = ("another teacher",)


def _values(route: Route, objects: dict[str, int], *, missing: bool) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for kwarg in route.kwargs:
        if kwarg in OBJECT_KWARGS:
            key = OBJECT_FOR_ROUTE.get(route.name, {}).get(kwarg, OBJECT_KWARGS[kwarg])
            values[kwarg] = MISSING if missing else objects[key]
        else:
            values[kwarg] = "x"
    return values


def _hit(client: Client, method: str, url: str) -> tuple[int, bytes]:
    response = client.get(url) if method == "get" else client.post(url, {})
    body = (
        b"".join(response.streaming_content) if response.streaming else response.content
    )  # CSV exports stream
    if response.status_code == 302:
        # Where it leads, not its body (empty): for an intruder, only to sign in.
        return 302, response["Location"].encode()
    return response.status_code, body


@pytest.mark.django_db
@pytest.mark.parametrize("route", object_routes(http_routes()), ids=lambda r: r.pattern)
def test_http_route_gives_intruders_the_same_404_as_a_missing_object(route: Route) -> None:
    world = build_world()
    url = route.url(_values(route, world["objects"], missing=False))
    missing_url = route.url(_values(route, world["objects"], missing=True))
    for who, client in world["intruders"].items():
        got_404 = False
        for method in ("get", "post"):
            real = _hit(client, method, url)
            gone = _hit(client, method, missing_url)
            # A visitor who is not signed in as a teacher is sent to sign in
            # from a teacher page (``classroom.teacher_signin``).
            refused = (404, 405) if who in SIGNED_IN_TEACHERS else (302, 404, 405)
            assert real[0] in refused, f"{who} {method.upper()} {url} → {real[0]}"
            if real[0] == 302:
                # Decided by the address alone: the same for a real and a
                # missing object (the address typed is all ``next`` repeats).
                assert url.startswith("/teacher/")
                assert real[1].startswith(reverse("classroom:login").encode() + b"?next=")
                assert real[1].replace(url.encode(), b"") == gone[1].replace(
                    missing_url.encode(), b""
                )
                got_404 = True
                continue
            assert real == gone, f"{who} {method.upper()} {url} differs from a missing object"
            got_404 = got_404 or real[0] in (302, 404)
        assert got_404, f"{who}: {url} never answered 404 (or sign in)"
    # Positive control: the owner (teacher or seated pupil) gets past the 404.
    # Routes that also need a secret (a class link, a parent token) are given
    # "x" here, so nobody gets in: their owners are tested in their own files
    # (test_parents, the practice tests).
    if any(k in NOT_IDS for k in route.kwargs):
        return
    owner_statuses = [_hit(c, "get", url)[0] for c in world["owners"].values()]
    owner_statuses += [_hit(c, "post", url)[0] for c in world["owners"].values()]
    assert any(s != 404 for s in owner_statuses), f"no owner can reach {url}: the fixture is wrong"


async def _ws_connects(path: str, client: Client) -> bool:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    cookie = client.cookies.get("sessionid")
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie.value}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    await communicator.disconnect()
    return connected


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route", object_routes(ws_routes()), ids=lambda r: r.pattern)
async def test_websocket_route_closes_for_intruders_like_for_a_missing_object(route: Route) -> None:
    world = await database_sync_to_async(build_world)()
    path = route.url(_values(route, world["objects"], missing=False))
    missing_path = route.url(_values(route, world["objects"], missing=True))
    for who, client in world["intruders"].items():
        assert not await _ws_connects(path, client), f"{who} connected to {path}"
        assert not await _ws_connects(missing_path, client)
    owners = [await _ws_connects(path, c) for c in world["owners"].values()]
    assert any(owners), f"no owner can open {path}: the fixture is wrong"
