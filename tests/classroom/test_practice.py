"""Solo practice: class link → name → pictures → robots → a game of one's own."""

from __future__ import annotations

import pytest
from django.test import Client

from cardgames import engines
from cardgames import services as cg
from cardgames.models import GameState, Table
from classroom import services
from classroom.models import Attendance, ClassSession, LearningRecord
from tests.factories import ClassSessionFactory, PupilFactory, SchoolClassFactory

pytestmark = pytest.mark.django_db


def _class_with_pupil(practice_allowed: bool = True):
    school_class = SchoolClassFactory(practice_allowed=practice_allowed)
    pupil = PupilFactory(school_class=school_class, display_name="Léo", picture_code=[2, 5])
    return school_class, pupil


def _log_in(client: Client, school_class, pupil) -> None:
    url = f"/practice/{school_class.link_token}/pupil/{pupil.pk}/"
    response = client.post(url, {"pick": ["2", "5"]})
    assert response.status_code == 302 and response["Location"] == "/practice/setup/"


def _start(client: Client, bots: int = 2, level: str = "easy") -> Table:
    response = client.post("/practice/setup/", {"bots": str(bots), "level": level})
    assert response.status_code == 302
    table_id = int(response["Location"].strip("/").split("/")[-1])
    return Table.objects.get(pk=table_id)


def test_with_no_lesson_the_class_link_offers_practice_then_a_game_starts(client: Client) -> None:
    school_class, pupil = _class_with_pupil()
    offer = client.get(f"/c/{school_class.link_token}")
    assert offer.status_code == 404  # no lesson: the join flow's answer stays
    assert "Je m'entraîne" in offer.content.decode()
    names = client.get(f"/practice/{school_class.link_token}/").content.decode()
    assert "Léo" in names
    # A wrong picture code is refused kindly and lets nobody in.
    wrong = client.post(
        f"/practice/{school_class.link_token}/pupil/{pupil.pk}/", {"pick": ["1", "3"]}
    )
    assert "ce ne sont pas tes images" in wrong.content.decode()
    assert client.get("/practice/setup/")["Location"] == "/join"
    _log_in(client, school_class, pupil)
    assert "Contre combien de robots" in client.get("/practice/setup/").content.decode()
    table = _start(client, bots=3, level="hard")
    seats = list(table.seats.order_by("index"))
    assert [s.player_key for s in seats] == [pupil.player_key] + ["bot:hard"] * 3
    class_session = ClassSession.objects.get(pk=int(table.group_key.split(":")[1]))
    assert class_session.practice and class_session.join_code is None
    assert table.status == Table.Status.PLAYING
    page = client.get(f"/table/{table.pk}/")
    assert page.status_code == 200 and "Léo" in page.content.decode()


def test_practice_records_are_flagged_practice(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    school_class, pupil = _class_with_pupil()
    _log_in(client, school_class, pupil)
    table = _start(client, bots=1)
    engine = engines.get("chasse")
    game_state = GameState.objects.get(table=table)
    state = engine.from_json(game_state.state)
    # Seat 0 (the pupil) starts the first round: play an arithmetic card.
    legal = engine.legal_actions(state, 0)
    hand = {c["id"]: c for c in engine.view(state, 0)["hand"]}
    action = next(
        (dict(a) for a in legal if hand.get(a.get("card"), {}).get("kind") == "add"), None
    )
    assert action is not None
    action["announce"] = hand[action["card"]]["value"]
    with django_capture_on_commit_callbacks(execute=True):
        cg.action_submit(
            table=table, seat=0, action=action, version=game_state.version, nonce="p-1"
        )
    record = LearningRecord.objects.get(pupil=pupil)
    assert record.practice and record.correct and record.total_after == action["announce"]


def test_practice_is_closed_when_the_teacher_does_not_allow_it(client: Client) -> None:
    school_class, pupil = _class_with_pupil(practice_allowed=False)
    assert client.get(f"/practice/{school_class.link_token}/").status_code == 404
    assert client.get("/practice/not-a-token/").status_code == 404
    offer = client.get(f"/c/{school_class.link_token}")
    assert "Je m'entraîne" not in offer.content.decode()
    response = client.post(
        f"/practice/{school_class.link_token}/pupil/{pupil.pk}/", {"pick": ["2", "5"]}
    )
    assert response.status_code == 404


def test_a_practice_game_never_hijacks_the_class_link_during_a_lesson(client: Client) -> None:
    school_class, pupil = _class_with_pupil()
    _log_in(client, school_class, pupil)
    _start(client)
    lesson = ClassSessionFactory(school_class=school_class, join_code="314159")
    other = Client()
    response = other.get(f"/c/{school_class.link_token}")
    assert response["Location"] == "/join"  # the lesson's keypad: its code is still needed
    assert "join_session_id" not in other.session
    assert other.post("/join", {"code": lesson.join_code})["Location"] == "/join/names/"


def test_rejouer_starts_a_new_game_for_the_same_players(client: Client) -> None:
    school_class, pupil = _class_with_pupil()
    _log_in(client, school_class, pupil)
    table = _start(client, bots=2)
    stranger = Client()
    assert stranger.post(f"/tables/{table.pk}/rematch/").status_code == 404
    response = client.post(f"/tables/{table.pk}/rematch/")
    assert response.status_code == 302
    new = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert new.pk != table.pk and new.group_key == table.group_key
    assert list(new.seats.values_list("player_key", flat=True)) == list(
        table.seats.values_list("player_key", flat=True)
    )
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and new.status == Table.Status.PLAYING
    # A second tap lands on the same new game, not a third one.
    again = client.post(f"/tables/{table.pk}/rematch/")
    assert again["Location"] == response["Location"]


def test_the_teacher_rejoue_at_a_lesson_table_and_the_group_follows() -> None:
    lesson = ClassSessionFactory(join_code="271828")
    pupils = [PupilFactory(school_class=lesson.school_class) for _ in range(2)]
    table = cg.table_create(
        game="chasse",
        seats=[cg.SeatSpec(player_key=p.player_key, display_name=p.display_name) for p in pupils],
        group_key=lesson.group_key,
        number=1,
    )
    cg.table_start(table=table)
    group = lesson.groups.create(number=1, size=2, table=table)
    for pupil in pupils:  # the pupils sit at this group's table
        Attendance.objects.create(class_session=lesson, pupil=pupil, group=group)
    teacher = Client()
    teacher.force_login(lesson.school_class.teacher)
    other_teacher = Client()
    other_teacher.force_login(SchoolClassFactory().teacher)
    assert other_teacher.post(f"/tables/{table.pk}/rematch/").status_code == 404
    response = teacher.post(f"/tables/{table.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    group.refresh_from_db()
    assert group.table_id != table.pk
    assert response["HX-Redirect"] == f"/table/{group.table_id}/"
    assert services.table_rematch(table=table).pk == group.table_id
