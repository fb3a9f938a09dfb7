"""Class sessions: options form, join code, grouping, bots and starting tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError
from django.test import Client

from cardgames.models import GameState, Table
from classroom import access, services
from classroom.models import Attendance, ClassSession, SessionGroup
from tests.factories import (
    AttendanceFactory,
    ClassSessionFactory,
    PupilFactory,
    SchoolClassFactory,
    TeacherFactory,
)

pytestmark = pytest.mark.django_db

DEFAULT_FORM = {
    "game": "chasse",
    "target": "100",
    "tokens": "3",
    "hand_size": "6",
    "tables": [str(i) for i in range(1, 11)],
    "somme_cards": "on",
    "special_cards": "on",
    "announce": "typed",
    "wrong_announcement": "coach",
    "turn_seconds": "",
}


@pytest.fixture
def teacher(client: Client) -> Any:
    user = TeacherFactory()
    client.force_login(user)
    return user


def test_the_options_form_is_built_from_the_engine_schema_in_french(
    client: Client, teacher: Any
) -> None:
    school_class = SchoolClassFactory(teacher=teacher)
    html = client.get(f"/teacher/classes/{school_class.pk}/sessions/new/").content.decode()
    assert "La Chasse aux Souris" in html
    assert "Total à ne pas atteindre" in html
    assert "L&#x27;élève choisit parmi 3 totaux" in html
    for key in ("target", "tokens", "hand_size", "tables", "announce", "turn_seconds"):
        assert f'name="{key}"' in html


def test_starting_a_session_gives_a_six_digit_code_and_keeps_the_options(
    client: Client, teacher: Any
) -> None:
    school_class = SchoolClassFactory(teacher=teacher)
    form = {**DEFAULT_FORM, "target": "50", "tables": ["2", "5"], "announce": "choice"}
    response = client.post(f"/teacher/classes/{school_class.pk}/sessions/new/", form)
    class_session = ClassSession.objects.get(school_class=school_class)
    assert response["Location"] == f"/teacher/sessions/{class_session.pk}/"
    assert len(class_session.join_code) == 6 and class_session.join_code.isdigit()
    assert class_session.options["target"] == 50
    assert class_session.options["tables"] == [2, 5]
    assert class_session.options["announce"] == "choice"
    assert class_session.options["turn_seconds"] is None
    page = client.get(response["Location"]).content.decode()
    assert class_session.join_code in page


def test_option_errors_are_shown_and_nothing_is_lost(client: Client, teacher: Any) -> None:
    school_class = SchoolClassFactory(teacher=teacher)
    response = client.post(
        f"/teacher/classes/{school_class.pk}/sessions/new/",
        {**DEFAULT_FORM, "target": "55", "tokens": "4"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ces réglages ne conviennent pas" in html or "multiple" in html
    assert 'value="4"' in html  # what the teacher typed is kept
    assert not ClassSession.objects.exists()


def test_a_deck_too_small_for_a_table_is_reported_and_the_others_start(
    client: Client, teacher: Any
) -> None:
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    _joined(class_session, 4)
    services.groups_make(class_session=class_session, size=2)
    small, _ok = SessionGroup.objects.filter(class_session=class_session).order_by("number")
    tiny_deck = {
        **DEFAULT_FORM,
        "tables": ["1"],
        "somme_cards": "",
        "special_cards": "",
        "hand_size": "8",
    }
    client.post(f"/teacher/groups/{small.pk}/options/", tiny_deck)
    response = client.post(f"/teacher/sessions/{class_session.pk}/start/", follow=True)
    html = response.content.decode()
    assert "Table 1 :" in html  # the engine's reason, for the teacher
    assert Table.objects.filter(group_key=class_session.group_key).count() == 1


def test_join_codes_are_unique_among_open_sessions_and_die_with_the_session() -> None:
    ClassSessionFactory(join_code="123456")
    with pytest.raises(IntegrityError):
        ClassSessionFactory(join_code="123456")


def test_a_code_collision_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    ClassSessionFactory(join_code="111111")
    codes = iter(["111111", "111111", "222222"])
    monkeypatch.setattr(services.sessions, "new_join_code", lambda: next(codes))
    class_session = services.session_start(
        school_class=SchoolClassFactory(), game="chasse", options={}
    )
    assert class_session.join_code == "222222"


def test_ending_a_session_frees_its_code() -> None:
    old = ClassSessionFactory(join_code="654321")
    services.session_end(class_session=old)
    old.refresh_from_db()
    assert old.join_code is None and old.ended_at is not None
    assert ClassSessionFactory(join_code="654321").join_code == "654321"


def test_a_new_session_ends_the_previous_one_of_the_class() -> None:
    school_class = SchoolClassFactory()
    first = services.session_start(school_class=school_class, game="chasse", options={})
    second = services.session_start(school_class=school_class, game="chasse", options={})
    first.refresh_from_db()
    assert not first.is_open and second.is_open


def _joined(class_session: ClassSession, n: int) -> list[Any]:
    return [
        AttendanceFactory(class_session=class_session, pupil__display_name=f"P{i}").pupil
        for i in range(n)
    ]


def test_groups_of_n_share_the_joined_pupils_evenly(client: Client, teacher: Any) -> None:
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    _joined(class_session, 10)
    html = client.post(
        f"/teacher/sessions/{class_session.pk}/groups/", {"size": "4"}, HTTP_HX_REQUEST="true"
    )
    assert html.status_code == 200 and 'id="board"' in html.content.decode()
    sizes = sorted(
        Attendance.objects.filter(class_session=class_session, group=g).count()
        for g in SessionGroup.objects.filter(class_session=class_session)
    )
    assert sizes == [3, 3, 4]


def test_the_board_offers_sizes_from_the_engine_min_to_max(client: Client, teacher: Any) -> None:
    from cardgames import engines

    engine = engines.get("chasse")
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    html = client.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    for n in range(engine.min_players, engine.max_players + 1):
        assert f"groupes de {n}" in html
    assert f"groupes de {engine.max_players + 1}" not in html


def test_move_a_pupil_by_tap_then_start_tables_with_bots_and_overrides(
    client: Client, teacher: Any
) -> None:
    class_session = ClassSessionFactory(school_class__teacher=teacher, options={"target": 100})
    pupils = _joined(class_session, 5)
    services.groups_make(class_session=class_session, size=3)
    g1, g2 = SessionGroup.objects.filter(class_session=class_session).order_by("number")
    mover = Attendance.objects.filter(group=g1).first().pupil

    # Tap a name (it becomes selected), then "Mettre ici" on table 2.
    board = client.get(
        f"/teacher/sessions/{class_session.pk}/board/?selected={mover.pk}"
    ).content.decode()
    assert 'aria-pressed="true"' in board and "Mettre ici" in board
    client.post(
        f"/teacher/sessions/{class_session.pk}/pupils/{mover.pk}/move/",
        {"group": g2.pk},
        HTTP_HX_REQUEST="true",
    )
    assert Attendance.objects.get(pupil=mover).group == g2

    # Table 1 (2 pupils) gets easy bots up to 4 seats; table 2 plays to 50.
    client.post(
        f"/teacher/groups/{g1.pk}/bots/", {"level": "easy", "size": "4"}, HTTP_HX_REQUEST="true"
    )
    client.post(f"/teacher/groups/{g2.pk}/options/", {**DEFAULT_FORM, "target": "50"})
    g2.refresh_from_db()
    assert g2.options_override == {"target": 50}

    response = client.post(f"/teacher/sessions/{class_session.pk}/start/")
    assert response.status_code == 302
    tables = list(Table.objects.filter(group_key=class_session.group_key).order_by("number"))
    assert len(tables) == 2
    t1, t2 = tables
    assert t1.seats.count() == 4 and t1.seats.filter(is_bot=True, bot_level="easy").count() == 2
    assert t2.seats.count() == 3 and not t2.seats.filter(is_bot=True).exists()
    assert t1.options["target"] == 100 and t2.options["target"] == 50
    assert t1.seed != t2.seed
    assert all(t.status == Table.Status.PLAYING for t in tables)
    assert GameState.objects.filter(table__in=tables).count() == 2
    keys = set(
        Table.objects.filter(pk__in=[t1.pk, t2.pk]).values_list("seats__player_key", flat=True)
    )
    assert {p.player_key for p in pupils} <= keys


def test_a_table_with_one_pupil_and_no_bot_is_not_started_and_says_why(
    client: Client, teacher: Any
) -> None:
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    _joined(class_session, 1)
    # "Aucun robot" chosen on the board: robots fill short tables by default (issue 48).
    services.groups_make(class_session=class_session, size=2, robots="")
    response = client.post(f"/teacher/sessions/{class_session.pk}/start/", follow=True)
    assert not Table.objects.filter(group_key=class_session.group_key).exists()
    assert "ajoutez des robots" in response.content.decode()


def test_the_lobby_goes_to_the_table_once_it_started(client: Client) -> None:
    class_session = ClassSessionFactory()
    pupils = _joined(class_session, 2)
    services.groups_make(class_session=class_session, size=2)
    services.tables_start(class_session=class_session)
    table = Table.objects.get(group_key=class_session.group_key)
    session = client.session
    session.update(
        {
            "player_key": pupils[0].player_key,
            "pupil_id": pupils[0].pk,
            "class_session_id": class_session.pk,
        }
    )
    session.save()
    assert client.get("/lobby/")["Location"] == f"/table/{table.pk}/"
    assert client.get("/lobby/where/")["HX-Redirect"] == f"/table/{table.pk}/"


def test_table_access_rules() -> None:
    class_session = ClassSessionFactory()
    owner = class_session.school_class.teacher
    pupils = _joined(class_session, 2)
    services.groups_make(class_session=class_session, size=2)
    services.tables_start(class_session=class_session)
    table = Table.objects.get(group_key=class_session.group_key)
    seat_of = {s.player_key: s.index for s in table.seats.all()}

    teacher_access = access.table_access(user=owner, session={}, table=table)
    assert teacher_access is not None and teacher_access.is_teacher and teacher_access.seat is None
    pupil_session = {
        "player_key": pupils[1].player_key,
        "pupil_id": pupils[1].pk,
        "class_session_id": class_session.pk,
    }
    pupil_access = access.table_access(user=None, session=pupil_session, table=table)
    assert pupil_access is not None and pupil_access.seat == seat_of[pupils[1].player_key]
    assert not pupil_access.is_teacher

    assert access.table_access(user=TeacherFactory(), session={}, table=table) is None
    other = PupilFactory()
    forged = {
        "player_key": other.player_key,
        "pupil_id": other.pk,
        "class_session_id": class_session.pk,
    }
    assert access.table_access(user=None, session=forged, table=table) is None
    # Once the session ends, its pupils lose their seats (the teacher keeps watching).
    services.session_end(class_session=class_session)
    assert access.table_access(user=None, session=pupil_session, table=table) is None
    assert access.table_access(user=owner, session={}, table=table) is not None


def test_ending_from_the_session_page_asks_first_then_ends_the_tables(
    client: Client, teacher: Any
) -> None:
    """One stray tap on "Terminer la séance" must not end a lesson: the GET is
    a confirmation that changes nothing; the POST ends the tables too, so the
    tablets are told (the same path as the monitor's button)."""
    class_session = ClassSessionFactory(school_class=SchoolClassFactory(teacher=teacher))
    _joined(class_session, 2)
    services.groups_make(class_session=class_session, size=2)
    services.tables_start(class_session=class_session)
    url = f"/teacher/sessions/{class_session.pk}/end/"
    assert f'href="{url}"' in client.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Oui, terminer la séance" in html and "1 table en cours" in html
    class_session.refresh_from_db()
    assert class_session.is_open
    client.post(url)
    class_session.refresh_from_db()
    assert not class_session.is_open
    assert set(
        Table.objects.filter(group_key=class_session.group_key).values_list("status", flat=True)
    ) == {Table.Status.FINISHED}
    # Another teacher's session: the same 404 as a missing one.
    other = ClassSessionFactory()
    assert client.get(f"/teacher/sessions/{other.pk}/end/").status_code == 404
    assert client.post(f"/teacher/sessions/{other.pk}/end/").status_code == 404


def test_the_session_projector_turns_into_the_tables_once_they_start(
    client: Client, teacher: Any
) -> None:
    """The projector asks every few seconds: an empty 204 while nobody plays
    (the joined list keeps its socket), then the tables' public views, with
    no hand and no teacher button."""
    class_session = ClassSessionFactory(school_class=SchoolClassFactory(teacher=teacher))
    url = f"/teacher/sessions/{class_session.pk}/projector/"
    first = client.get(url).content.decode()
    assert 'hx-trigger="every 3s"' in first and "projector-code" in first
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 204
    _joined(class_session, 4)
    services.groups_make(class_session=class_session, size=2)
    services.tables_start(class_session=class_session)
    polled = client.get(url, HTTP_HX_REQUEST="true")
    assert polled.status_code == 200
    html = polled.content.decode()
    assert html.count('class="mosaic-table') == 2 and "cg-total-value" in html
    assert 'class="cg-hand"' not in html and "Rejouer" not in html and "ws-send" not in html
    assert 'hx-trigger="every 3s"' in html  # it keeps following the tables
    # Another teacher's session: the same 404 as a missing one.
    assert client.get(f"/teacher/sessions/{ClassSessionFactory().pk}/projector/").status_code == 404
