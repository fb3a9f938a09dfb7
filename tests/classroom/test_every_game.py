"""Every game in class: offered on the session form with its title, pitch,
icon and players; a session opens and a table starts for each; grouping says
why a table cannot start; the monitor and the projector work for each."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from cardgames import engines, ui
from cardgames.models import Table
from classroom import services
from classroom.models import ClassSession, SessionGroup
from tests.factories import (
    AttendanceFactory,
    ClassSessionFactory,
    PupilFactory,
    SchoolClassFactory,
    TeacherFactory,
)

pytestmark = pytest.mark.django_db

GAMES = ["chasse", "picktura", "pinocchio", "purrfect"]


@pytest.fixture
def teacher(client: Client) -> Any:
    user = TeacherFactory()
    client.force_login(user)
    return user


def _joined(class_session: ClassSession, n: int) -> list[Any]:
    pupils = PupilFactory.create_batch(n, school_class=class_session.school_class)
    for pupil in pupils:
        AttendanceFactory(class_session=class_session, pupil=pupil)
    return pupils


def _default_form(game: str) -> dict[str, Any]:
    """What the options form posts when the teacher changes nothing."""
    form: dict[str, Any] = {"game": game}
    for spec in engines.get(game).option_schema():
        value = spec.get("default")
        if spec["type"] == "bool":
            if value:
                form[spec["key"]] = "on"
        elif spec["type"] == "int_set":
            form[spec["key"]] = [str(v) for v in value]
        else:
            form[spec["key"]] = "" if value is None else str(value)
    return form


def test_the_session_form_offers_the_four_games_with_title_pitch_icon_and_players(
    client: Client, teacher: Any
) -> None:
    school_class = SchoolClassFactory(teacher=teacher)
    html = client.get(f"/teacher/classes/{school_class.pk}/sessions/new/").content.decode()
    assert sorted(re.findall(r'name="game" value="(\w+)"', html)) == GAMES
    for game in GAMES:
        engine = engines.get(game)
        assert ui.game_title(game) in html
        assert str(ui.get(game).pitch).replace("'", "&#x27;") in html
        assert f"{engine.min_players} à {engine.max_players} joueurs" in html
    assert "img/purrfect/cat-0.svg" in html
    # Chasse is chosen first, with its options.
    assert re.search(r'value="chasse" checked', html) and 'name="target"' in html


def test_choosing_a_game_swaps_in_its_options(client: Client, teacher: Any) -> None:
    school_class = SchoolClassFactory(teacher=teacher)
    html = client.get(
        f"/teacher/classes/{school_class.pk}/sessions/new/?game=purrfect", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="game-options"' in html and "<html" not in html
    assert "Pattes pour gagner" in html and 'name="paws_to_win"' in html
    assert 'name="target"' not in html
    # An unknown game falls back to the central one rather than failing.
    html = client.get(
        f"/teacher/classes/{school_class.pk}/sessions/new/?game=nope", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'name="target"' in html


@pytest.mark.parametrize("game", GAMES)
def test_a_session_opens_and_a_table_starts_for_each_game(
    client: Client, teacher: Any, game: str
) -> None:
    school_class = SchoolClassFactory(teacher=teacher)
    response = client.post(
        f"/teacher/classes/{school_class.pk}/sessions/new/", _default_form(game)
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    class_session = ClassSession.objects.get(school_class=school_class, ended_at__isnull=True)
    assert class_session.game == game
    engine = engines.get(game)
    pupils = _joined(class_session, 2)
    services.groups_make(class_session=class_session, size=engine.min_players)
    group = SessionGroup.objects.get(class_session=class_session)
    client.post(
        f"/teacher/groups/{group.pk}/bots/",
        {"level": "easy", "size": str(engine.min_players)},
        HTTP_HX_REQUEST="true",
    )
    board = client.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    assert "Lancer 1 table" in board
    response = client.post(f"/teacher/sessions/{class_session.pk}/start/")
    assert response.status_code == 302
    table = Table.objects.get(group_key=class_session.group_key)
    assert table.game == game and table.status == Table.Status.PLAYING
    assert table.seats.count() == max(2, engine.min_players)
    # The projector and the monitor draw it: public information, no button.
    projector = client.get(f"/table/{table.pk}/projector/")
    assert projector.status_code == 200
    page = projector.content.decode()
    assert pupils[0].display_name in page
    assert "ws-send" not in page and 'name="cards"' not in page
    monitor = client.get(f"/teacher/sessions/{class_session.pk}/monitor/")
    assert monitor.status_code == 200
    assert pupils[0].display_name in monitor.content.decode()


def test_three_pupils_without_robots_cannot_make_a_purrfect_table_and_are_told_why(
    client: Client, teacher: Any
) -> None:
    class_session = ClassSessionFactory(school_class__teacher=teacher, game="purrfect")
    _joined(class_session, 3)
    # "Aucun robot" chosen on the board: robots fill short tables by default (issue 48).
    services.groups_make(class_session=class_session, size=4, robots="")
    board = client.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    assert "Il faut au moins 4 joueurs à cette table" in board
    assert "Lancer 0 table" in board
    response = client.post(f"/teacher/sessions/{class_session.pk}/start/", follow=True)
    assert response.status_code == 200
    assert not Table.objects.filter(group_key=class_session.group_key).exists()
    assert "ajoutez des robots" in response.content.decode()


def test_robots_fill_a_purrfect_table_up_to_the_minimum(client: Client, teacher: Any) -> None:
    class_session = ClassSessionFactory(school_class__teacher=teacher, game="purrfect")
    _joined(class_session, 3)
    services.groups_make(class_session=class_session, size=4)
    group = SessionGroup.objects.get(class_session=class_session)
    client.post(
        f"/teacher/groups/{group.pk}/bots/", {"level": "easy", "size": "2"}, HTTP_HX_REQUEST="true"
    )
    group.refresh_from_db()
    assert group.size == 4  # never below the game's minimum
    client.post(f"/teacher/sessions/{class_session.pk}/start/")
    table = Table.objects.get(group_key=class_session.group_key)
    assert table.seats.count() == 4 and table.seats.filter(is_bot=True).count() == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_teachers_rejouer_works_for_every_game(
    client: Client, teacher: Any, game: str, django_capture_on_commit_callbacks: Any
) -> None:
    """ "Rejouer" at a finished lesson table: same seats, a fresh game, the group
    follows; the old table's social records are written (participation)."""
    from cardgames import services as cg

    class_session = ClassSessionFactory(school_class__teacher=teacher, game=game)
    engine = engines.get(game)
    pupils = _joined(class_session, engine.min_players)
    table = cg.table_create(
        game=game,
        seats=[cg.SeatSpec(player_key=p.player_key, display_name=p.display_name) for p in pupils],
        group_key=class_session.group_key,
        number=1,
    )
    cg.table_start(table=table)
    group = class_session.groups.create(number=1, size=len(pupils), table=table)
    class_session.attendances.update(group=group)  # the pupils sit at this group's table
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/tables/{table.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    group.refresh_from_db()
    new = group.table
    assert new is not None and new.pk != table.pk and new.game == game
    assert new.status == Table.Status.PLAYING
    assert list(new.seats.values_list("player_key", flat=True)) == [p.player_key for p in pupils]
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    from classroom.models import SocialRecord

    written = SocialRecord.objects.filter(table_id=table.pk, finished_at__isnull=False).count()
    assert written == (0 if game == "chasse" else len(pupils))
