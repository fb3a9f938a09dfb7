"""Picktura's end: no screen gives away the sum a pupil is adding up (issue 46, item 8).

Bugs: the projector showed every score ("Léo 5 points") while Léo's tablet asked
"Combien de points as-tu ?"; and each player's box said "Léo 4 points" (the
points on show) beside "5 points" in the ranking: two scores for one child.
Now a pupil's score appears on a screen only once that pupil has answered (or
the time to answer is up), and at the end only the ranking gives a score.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from cardgames import engines, rendering, services
from cardgames.models import GameState, Table
from tests.cardgames.factories import fresh_channel_layer, pupil_spec, seat_resolver  # noqa: F401
from tests.cardgames.test_consumer import _tablets
from tests.cardgames.wsclient import Tablet

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

RANK_ROW = re.compile(r'<li class="cg-rank[^"]*">(.*?)</li>', re.S)
SCORE = re.compile(r"\d+ points?\b")
PLAYERS = re.compile(r'<ul class="pk-players".*?</ul>', re.S)


def _finished_table(*, finished_ago: timedelta = timedelta(0)) -> Table:
    """Léa and Tom and a robot, the game played to its end by robots' moves
    (the engine is deterministic), the table finished as a last move leaves it."""
    seats = [pupil_spec(1, "Léa"), pupil_spec(2, "Tom"), services.bot_seat(level="easy", number=1)]
    table = services.table_create(game="picktura", seats=seats, options={}, seed=21, group_key="test:1")
    services.table_start(table=table)
    engine = engines.get("picktura")
    row = GameState.objects.get(table=table)
    state = engine.from_json(row.state)
    rng = random.Random(5)
    bot = engine.bot("easy")
    steps = 0
    while not engine.is_over(state):
        seat = state.current
        legal = engine.legal_actions(state, seat)
        action = bot(engine.view(state, seat), legal, rng, engine.history(state, seat)) or legal[0]
        engine.apply(state, seat, action)
        steps += 1
        assert steps < 5000
    row.state = engine.to_json(state)
    row.version += steps
    row.save()
    table.status = Table.Status.FINISHED
    table.finished_at = timezone.now() - finished_ago
    table.save(update_fields=["status", "finished_at"])
    return table


def _scores(table: Table) -> list[int]:
    engine = engines.get("picktura")
    state = engine.from_json(GameState.objects.get(table=table).state)
    return list(engine.result(state)["scores"])


def _teacher_cookie() -> str:
    user = get_user_model().objects.create_user(username="prof", password="x-long-password-1", is_staff=True)
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _row_of(html: str, name: str) -> str:
    return next((row for row in RANK_ROW.findall(html) if name in row), "")


async def test_the_projector_shows_a_score_only_once_its_pupil_has_answered() -> None:
    table = await database_sync_to_async(_finished_table)()
    scores = await database_sync_to_async(_scores)(table)
    lea, tom = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    assert "Combien de points as-tu ?" in lea.screen
    wall = Tablet(table.pk, await database_sync_to_async(_teacher_cookie)())
    assert await wall.connect()
    for name in ("Léa", "Tom"):
        row = _row_of(wall.screen, name)
        assert row, f"{name} is in the ranking"
        assert not SCORE.search(row), f"the wall shows {name}'s score before {name} answered: {row}"
    robot = next(row for row in RANK_ROW.findall(wall.screen) if "Robot" in row)
    assert SCORE.search(robot), "a robot adds up nothing: its score is shown"

    await tom.send({"kind": "answer", "answer": str(scores[1])})
    after = await tom.receive_until("pk-sum-result")
    assert f"{scores[1]} point" in _row_of(after, "Tom")
    assert not SCORE.search(_row_of(after, "Léa")), "Tom's tablet shows Léa's score before she answered"
    await wall.send({"kind": "sync"})
    again = await wall.receive()
    assert f"{scores[1]} point" in _row_of(again, "Tom")
    assert not SCORE.search(_row_of(again, "Léa"))
    for tablet in (lea, tom, wall):
        await tablet.close()


async def test_one_score_per_child_at_the_end() -> None:
    """The players' boxes no longer show the points on show at the end: the
    ranking alone gives each child's score (and no exhibit's points add it up
    for them on the wall)."""
    table = await database_sync_to_async(_finished_table)(finished_ago=timedelta(hours=1))
    wall = Tablet(table.pk, await database_sync_to_async(_teacher_cookie)())
    assert await wall.connect()
    players = PLAYERS.search(wall.screen)
    assert players is not None
    assert "pk-score" not in players.group(0) and "pk-points" not in players.group(0)
    # The time to answer is up: every score is in the ranking, once.
    scores = await database_sync_to_async(_scores)(table)
    for name, score in (("Léa", scores[0]), ("Tom", scores[1])):
        assert f"{score} point" in _row_of(wall.screen, name)
    await wall.close()


def test_the_time_to_answer_ends() -> None:
    """After ``END_ANSWER_SECONDS`` every score may be shown (a pupil who left
    must not keep the class's ranking hidden for good)."""
    table = _finished_table(finished_ago=timedelta(seconds=rendering.END_ANSWER_SECONDS + 5))
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    assert rendering.scores_shown(snap) == frozenset({0, 1, 2})
    Table.objects.filter(pk=table.pk).update(finished_at=timezone.now())
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    assert rendering.scores_shown(snap) == frozenset({2})
