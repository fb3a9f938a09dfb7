"""The table pages over HTTP: the seat's page, the projector, the replay."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from cardgames import engines, runtime, services
from cardgames.models import GameState
from tests.cardgames.factories import seat_resolver, session_cookie, started_table  # noqa: F401
from tests.cardgames.wsclient import card_ids

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seat_resolver")]


@pytest.fixture(autouse=True)
def _no_background(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime, "schedule", lambda table_id, at: None)


def _pupil_client(key: str) -> Client:
    client = Client()
    client.cookies["sessionid"] = session_cookie(key)
    return client


def _staff_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create(username="prof", is_staff=True))
    return client


def test_table_page_shows_my_hand_and_one_socket_container() -> None:
    table = started_table(seed=3)
    response = _pupil_client("pupil:1").get(f"/table/{table.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    state = engines.get("chasse").from_json(GameState.objects.get(table=table).state)
    assert set(state.hands[0]) <= card_ids(html)
    assert not card_ids(html) & set(state.hands[1] + state.hands[2])
    assert html.count("ws-connect=") == 1 and f'ws-connect="/ws/table/{table.pk}/"' in html
    assert "C&#x27;est ton tour" in html or "C'est ton tour" in html


def test_strangers_and_missing_tables_get_the_same_404() -> None:
    table = started_table()
    assert _pupil_client("pupil:77").get(f"/table/{table.pk}/").status_code == 404
    assert _pupil_client("pupil:1").get(f"/table/{table.pk + 50}/").status_code == 404
    assert _pupil_client("pupil:1").get(f"/table/{table.pk}/projector/").status_code == 404


def test_projector_shows_public_information_only() -> None:
    table = started_table(seed=4)
    response = _staff_client().get(f"/table/{table.pk}/projector/")
    assert response.status_code == 200
    state = engines.get("chasse").from_json(GameState.objects.get(table=table).state)
    assert not card_ids(response.content.decode()) & {c for hand in state.hands for c in hand}


def test_a_finished_table_replays_step_by_step() -> None:
    table = started_table(pupils=2, bots=0, options={"tokens": 1, "target": 50}, seed=12)
    engine = engines.get("chasse")
    rng = random.Random(1)
    version = 0
    while True:
        state = engine.from_json(GameState.objects.get(table=table).state)
        if engine.is_over(state):
            break
        seat = engine.view(state, None)["current_seat"]
        action = dict(rng.choice(engine.legal_actions(state, seat)))
        if action.get("announce") == "int":
            action["announce"] = 10
        services.action_submit(
            table=table, seat=seat, action=action, version=version, nonce=f"r{version}"
        )
        version += 1
    client = _staff_client()
    first = client.get(f"/table/{table.pk}/replay/?step=0").content.decode()
    assert "Étape 0 sur" in first and 'data-version="0"' in first
    # Step 1: the first move, described in French, from the public view.
    step = client.get(f"/table/{table.pk}/replay/?step=1", HTTP_HX_REQUEST="true")
    html = step.content.decode()
    assert "<html" not in html and 'id="replay-step"' in html and " joue " in html
    last = client.get(f"/table/{table.pk}/replay/?step={version}").content.decode()
    assert "Partie terminée" in last
    # Never a hand in the replay, at any step.
    replayed = engine.new_game(2, table.seed, table.options)
    for move in table.moves.order_by("version")[:5]:
        engine.apply(replayed, move.seat, move.action)
        page = client.get(f"/table/{table.pk}/replay/?step={move.version}").content.decode()
        assert not card_ids(page) & {c for hand in replayed.hands for c in hand}


def test_a_table_still_playing_has_no_replay() -> None:
    table = started_table()
    assert _staff_client().get(f"/table/{table.pk}/replay/").status_code == 404


def test_a_pupil_reopening_a_game_that_went_on_elsewhere_is_sent_to_the_new_one() -> None:
    """A tablet asleep during "Rejouer" reloads the old table's page: it lands on
    the new game. The teacher may still look at the finished one."""
    old = started_table(seed=3)
    new = services.table_create(
        game=old.game,
        seats=[
            services.SeatSpec(player_key=s.player_key, display_name=s.display_name, is_bot=s.is_bot)
            for s in old.seats.order_by("index")
        ],
        group_key=old.group_key,
        number=old.number,
    )
    services.table_start(table=new)
    services.table_end(table=old)
    response = _pupil_client("pupil:1").get(f"/table/{old.pk}/")
    assert response.status_code == 302 and response["Location"] == f"/table/{new.pk}/"
    assert _staff_client().get(f"/table/{old.pk}/").status_code == 200
