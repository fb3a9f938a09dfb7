"""What one move costs the server: statements on the database thread, and the
bytes each socket receives."""

from __future__ import annotations

from typing import Any

import pytest

from cardgames import engines, rendering
from cardgames.access import TableAccess
from cardgames.consumers import TableConsumer
from cardgames.models import GameState
from tests.cardgames.factories import started_table
from tests.cardgames.wsclient import play_form

pytestmark = pytest.mark.django_db

# The statements of a pupil's move, from its message to the mover's new screen,
# all on the worker's database thread: lock the table and read its state (1),
# the seats (1), the nonce check (1), save the state (1), the last event number
# (1), its events (1) and the move (1). The mover's own screen is drawn from the
# table as the move committed it: no read after. The test's transaction adds a
# savepoint and its release (2). Turn bookkeeping (a robot's think time) may add
# one.
MOVE_STATEMENTS = 10


def _consumer(table_id: int, seat: int, game: str) -> TableConsumer:
    consumer = TableConsumer()
    consumer.table_id = table_id
    consumer.game = game
    consumer.access = TableAccess(seat=seat, is_teacher=False)
    consumer.player_key = f"pupil:{seat + 1}"
    return consumer


def test_a_move_takes_a_fixed_small_number_of_statements(
    django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    table = started_table(pupils=3, bots=1, options={"announce": "shown"}, seed=5)
    engine = engines.get(table.game)
    for _ in range(6):  # several moves: the count does not grow with the game
        game_state = GameState.objects.get(table=table)
        state = engine.from_json(game_state.state)
        current = engine.view(state, None)["current_seat"]
        consumer = _consumer(table.pk, current, table.game)
        consumer.player_key = None  # the bot's seat too is played through the socket here
        form = play_form(engine.legal_actions(state, current)[0], game_state.version)
        with (
            django_assert_max_num_queries(MOVE_STATEMENTS),
            django_capture_on_commit_callbacks(execute=True),
        ):
            answer = consumer._handle(form)
        # The mover's own screen comes back with the move, at the new version.
        assert answer.snap is not None and answer.snap.version == game_state.version + 1


def test_a_move_sends_each_watching_socket_only_what_changed() -> None:
    """After a move a socket is sent the parts of its screen that changed: the
    board, the players' lines, the log, the state line; a hand only to the seat
    that moved and the seat whose turn it now is."""
    table = started_table(pupils=3, bots=1, options={"announce": "shown"}, seed=5)
    engine = engines.get(table.game)
    seats: list[int | None] = [0, 1, 2, None]
    shown = {seat: rendering.Shown() for seat in seats}
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    for seat in seats:
        rendering.render_screen(snap, seat).update(shown[seat])
    sent = whole = 0
    for _step in range(12):
        game_state = GameState.objects.get(table=table)
        state = engine.from_json(game_state.state)
        mover = engine.view(state, None)["current_seat"]
        consumer = _consumer(table.pk, mover, table.game)
        consumer.player_key = None  # the bot's seat too is played through the socket here
        consumer._handle(play_form(engine.legal_actions(state, mover)[0], game_state.version))
        snap = rendering.snapshot(table.pk)
        assert snap is not None
        after = engine.view(snap.state, None)["current_seat"]
        for seat in seats:
            screen = rendering.render_screen(snap, seat)
            update = screen.update(shown[seat])
            assert f'data-version="{snap.version}"' in update  # the state line, always
            assert ('id="cg-hand"' in update) == (seat in (mover, after) and seat is not None)
            sent += len(update.encode())
            whole += len(screen.html.encode())
    assert sent < 0.7 * whole, (sent, whole)
