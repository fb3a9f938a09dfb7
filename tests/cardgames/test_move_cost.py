"""What one move costs the server: statements on the database thread, and the
bytes each socket receives."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from cardgames import engines, rendering, screen_units, services
from cardgames.access import TableAccess
from cardgames.consumers import TableConsumer
from cardgames.models import GameState
from cardgames.services.messages import Reply, message_handle
from tests.cardgames.factories import seat_resolver, started_table  # noqa: F401
from tests.cardgames.wsclient import play_form

pytestmark = pytest.mark.django_db

# The statements of a pupil's move, from its message to the mover's new screen,
# all on the worker's database thread: lock the table and read its state (1),
# the seats (1), save the state with the next event number (1), its events (1)
# and the move (1). No nonce lookup on a current screen, no MAX(seq), no UPDATE
# of the card the pupil tapped first; the mover's own screen is drawn from the
# table as the move committed it: no read after. The test's transaction adds a
# savepoint and its release (2). Turn bookkeeping (a robot's think time) may add
# one.
MOVE_STATEMENTS = 8
# A tap that chooses a card: the table's read for the screen it opens (2) and
# the seat's UPDATE (1).
CHOOSE_STATEMENTS = 3
# A tablet opening its table (a first connect, or one of a killed worker's
# tablets reconnecting): the table (1), the browser session (1) and its seat (1),
# the table's read for the screen, which also tells the seat's row and when the
# table is next due (2), its presence row (2: UPDATE, then INSERT) and the seat's
# last seen time (1).
OPEN_STATEMENTS = 8
# A robot's turn, when it falls due: the table's read (2: the state with its
# table, then the seats), the move (5, as above), clearing the robot's think
# time (1), and the test's savepoint and its release (2).
BOT_MOVE_STATEMENTS = 10


def _consumer(table_id: int, seat: int, game: str) -> TableConsumer:
    consumer = TableConsumer()
    consumer.table_id = table_id
    consumer.game = game
    consumer.access = TableAccess(seat=seat, is_teacher=False)
    consumer.player_key = f"pupil:{seat + 1}"
    return consumer


def _handle(consumer: TableConsumer, data: dict[str, Any]) -> Reply:
    """One message of the socket, handled as its ``receive`` hands it over."""
    assert consumer.access is not None
    return message_handle(
        table_id=consumer.table_id,
        game=consumer.game,
        seat=consumer.access.seat,
        player_key=consumer.player_key,
        data=data,
    )


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
        # As on a tablet: the card is tapped first, then played.
        with django_assert_max_num_queries(CHOOSE_STATEMENTS):
            chosen = _handle(
                consumer, {"kind": "choose", "card": form["card"], "version": form["version"]}
            )
        assert chosen.snap is not None and not chosen.notice
        with (
            django_assert_max_num_queries(MOVE_STATEMENTS),
            django_capture_on_commit_callbacks(execute=True),
        ):
            answer = _handle(consumer, form)
        # The mover's own screen comes back with the move, at the new version.
        assert answer.snap is not None and answer.snap.version == game_state.version + 1


def test_a_robots_turn_takes_a_fixed_small_number_of_statements(
    django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from cardgames.models import Seat

    table = started_table(pupils=2, bots=1, options={"announce": "shown"}, seed=5, bots_first=True)
    before = GameState.objects.get(table=table).version
    Seat.objects.filter(table=table, is_bot=True).update(
        next_think_at=timezone.now() - timedelta(seconds=1)
    )
    with (
        django_assert_max_num_queries(BOT_MOVE_STATEMENTS),
        django_capture_on_commit_callbacks(execute=False),
    ):
        next_due = services.bot_turns(table_id=table.pk)
    # The robot played once; the turn is now a pupil's, with no robot due.
    assert GameState.objects.get(table=table).version == before + 1
    assert next_due is None


@pytest.mark.usefixtures("seat_resolver")
def test_a_tablet_opens_its_table_in_a_fixed_small_number_of_statements(
    django_assert_max_num_queries: Any,
) -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore

    from cardgames.models import SeatConnection

    table = started_table(pupils=3, bots=1, options={"announce": "shown"}, seed=5)
    session = SessionStore()
    session["player_key"] = "pupil:2"
    session.save()
    consumer = TableConsumer()
    consumer.table_id = table.pk
    consumer.channel_name = "test-socket-1"
    consumer.scope = {"user": AnonymousUser(), "session": SessionStore(session.session_key)}
    with django_assert_max_num_queries(OPEN_STATEMENTS):
        opened = consumer._open()
    assert opened is not None
    snap, _next_due = opened
    # It knows its seat and its player, and the monitor sees it connected.
    assert consumer.access is not None and consumer.access.seat == 1
    assert consumer.player_key == "pupil:2"
    assert SeatConnection.objects.filter(channel_name="test-socket-1", seat__index=1).exists()
    assert snap.version == GameState.objects.get(table=table).version


def _play_one(table_id: int, game: str) -> tuple[int, int]:
    """The seat whose turn it is plays its first legal card through its socket;
    returns (who moved, whose turn it is now)."""
    engine = engines.get(game)
    game_state = GameState.objects.get(table_id=table_id)
    state = engine.from_json(game_state.state)
    mover = engine.view(state, None)["current_seat"]
    consumer = _consumer(table_id, mover, game)
    consumer.player_key = None  # the bot's seat too is played through the socket here
    _handle(consumer, play_form(engine.legal_actions(state, mover)[0], game_state.version))
    after = engine.from_json(GameState.objects.get(table_id=table_id).state)
    return mover, engine.view(after, None)["current_seat"]


def test_a_move_sends_each_watching_socket_only_what_changed() -> None:
    """After a move a socket is sent the parts of its screen that changed: the
    board, the new lines of the log, the state line; a hand only to the seat
    that moved and the seat whose turn it now is. A Chasse move costs a socket
    under 4 KB on average (a whole screen is 7 to 13 KB)."""
    table = started_table(pupils=3, bots=1, options={"announce": "shown"}, seed=5)
    seats: list[int | None] = [0, 1, 2, None]
    shown = {seat: screen_units.Shown() for seat in seats}
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    for seat in seats:
        rendering.render_screen(snap, seat).update(shown[seat])
    sent = whole = updates = 0
    round_number = snap.engine.view(snap.state, None)["round"]
    for _step in range(24):
        mover, after = _play_one(table.pk, table.game)
        snap = rendering.snapshot(table.pk)
        assert snap is not None
        dealt = snap.engine.view(snap.state, None)["round"] != round_number
        round_number = snap.engine.view(snap.state, None)["round"]
        for seat in seats:
            screen = rendering.render_screen(snap, seat)
            update = screen.update(shown[seat])
            assert f'data-version="{snap.version}"' in update  # the state line, always
            if not dealt:  # a new round deals every hand again
                hand = 'id="cg-hand"' in update or 'data-line="cg-card-' in update
                assert hand == (seat in (mover, after) and seat is not None)
            sent += len(update.encode())
            whole += len(screen.html.encode())
            updates += 1
    assert sent / updates < 4096, (sent / updates, whole / updates)


def _units(html: str) -> dict[str, str]:
    """A screen's units as a tablet shows them (htmx drops hx-swap-oob)."""
    return {
        key: re.sub(r' hx-swap-oob="[^"]*"', "", unit)
        for key, unit in screen_units.Screen.of(html, version=0, status="").units.items()
    }


def test_a_tablet_that_follows_the_updates_shows_what_a_fresh_screen_shows() -> None:
    """However a move's update is cut (whole parts, new log lines on top, old
    ones dropped, a turn marked by the state line alone), a tablet
    that applies every update the way htmx does ends with exactly the screen a
    fresh read draws: no line missing, doubled or out of order."""
    table = started_table(pupils=3, bots=1, options={"announce": "shown"}, seed=11)
    seats: list[int | None] = [0, 1, 2, None]
    shown = {seat: screen_units.Shown() for seat in seats}
    tablets = dict.fromkeys(seats, "")
    lines_only = 0
    for step in range(40):
        if step:
            _play_one(table.pk, table.game)
        snap = rendering.snapshot(table.pk)
        assert snap is not None
        for seat in seats:
            screen = rendering.render_screen(snap, seat, announce=True)
            update = screen.update(shown[seat])
            tablets[seat] = screen_units.apply_update(tablets[seat], update)
            assert _units(tablets[seat]) == _units(screen.html), (step, seat)
            if step and not snap.engine.view(snap.state, None).get("over"):
                # Nothing a move changes lies outside the parts (not even "how
                # to play" closing after a seat's first move): never the whole screen.
                assert 'id="table-main"' not in update, (step, seat)
            if 'hx-swap-oob="afterbegin:#table-log-list"' in update:
                assert 'id="table-log"' not in update  # not the whole log as well
                lines_only += 1
            if step and snap.engine.view(snap.state, None).get("over"):
                break
    # Most moves add their lines on top of the log rather than send it again.
    assert lines_only > 40 * len(seats) // 2, lines_only


def test_choosing_a_card_sends_that_card_not_the_whole_hand() -> None:
    """A pupil taps a card before announcing: the chosen card (and the one let
    go of) is re-sent, not the six cards of the hand, and the tablet then shows
    exactly what a fresh screen shows."""
    table = started_table(pupils=3, bots=1, options={"announce": "typed"}, seed=3)
    engine = engines.get(table.game)
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    mover = engine.view(snap.state, None)["current_seat"]
    shown = screen_units.Shown()
    tablet = screen_units.apply_update("", rendering.render_screen(snap, mover).update(shown))
    cards = [action["card"] for action in engine.legal_actions(snap.state, mover)]
    consumer = _consumer(table.pk, mover, table.game)
    consumer.player_key = None
    for card in (cards[0], cards[1]):
        _handle(consumer, {"kind": "choose", "card": str(card), "version": str(snap.version)})
        after = rendering.snapshot(table.pk)
        assert after is not None
        screen = rendering.render_screen(after, mover)
        update = screen.update(shown)
        tablet = screen_units.apply_update(tablet, update)
        assert _units(tablet) == _units(screen.html)
        assert 'id="cg-hand"' not in update  # not the hand itself...
        assert f'data-line="cg-card-{card}"' in update  # ...but the chosen card
        assert len(update.encode()) < len(screen.units["cg-hand"].encode()) + len(
            screen.units["cg-panel"].encode()
        )


def _play_any(table_id: int, rng: random.Random, step: int) -> bool:
    """One seat that may act does what a medium robot would (any seat: in
    Purrfect everyone trades at once). False when nobody can act."""
    snap = rendering.snapshot(table_id)
    assert snap is not None
    engine, state = snap.engine, snap.state
    movers = [seat for seat in range(len(snap.seats)) if engine.legal_actions(state, seat)]
    if not movers:
        return False
    seat = rng.choice(movers)
    legal = engine.legal_actions(state, seat)
    action = engine.bot("medium")(engine.view(state, seat), legal, rng, engine.history(state, seat))
    services.action_submit(
        table=snap.table, seat=seat, action=action or legal[0], version=snap.version,
        nonce=f"step-{step}", player_key=snap.seats[seat].player_key,
    )
    return True


def _log_lines(html: str | None) -> set[str]:
    """What the log's lines say, in a screen or a unit."""
    log = screen_units.Screen.of(html or "", version=0, status="").units.get("table-log", "")
    return set(re.findall(r'<li[^>]*class="cg-event[^"]*"[^>]*>(.*?)</li>', log))


@pytest.mark.parametrize(
    ("game", "options"),
    [("purrfect", {}), ("pinocchio", {"words_language": "fr"}), ("picktura", {})],
)
def test_the_other_games_send_the_parts_a_move_changed_not_the_whole_screen(
    game: str, options: dict[str, Any]
) -> None:
    """Purrfect, Pinocchio and Picktura are cut into parts too: while the game
    runs, a move never sends a tablet its whole screen (Picktura's alone is 25 KB,
    its artworks' cartels included), and a tablet that applies every update the
    way htmx does shows exactly what a fresh screen shows. The log is sent its
    new lines only: whole only when none of its lines was on the tablet yet."""
    table = started_table(game=game, pupils=4, bots=0, options=options, seed=5)
    viewers: list[int | None] = [0, 1, 2, 3, None]
    shown = {viewer: screen_units.Shown() for viewer in viewers}
    tablets = dict.fromkeys(viewers, "")
    rng = random.Random(3)
    sent = whole = moves = 0
    for step in range(60):
        if step and not _play_any(table.pk, rng, step):
            break
        snap = rendering.snapshot(table.pk)
        assert snap is not None
        over = bool(snap.engine.view(snap.state, None).get("over"))
        for viewer in viewers:
            screen = rendering.render_screen(snap, viewer, announce=True)
            shown_log = shown[viewer].units.get("table-log")
            update = screen.update(shown[viewer])
            tablets[viewer] = screen_units.apply_update(tablets[viewer], update)
            assert _units(tablets[viewer]) == _units(screen.html), (step, viewer)
            if step and not over:
                assert 'id="table-main"' not in update, (step, viewer)
                if 'id="table-log"' in update:
                    # Sent whole only when none of its lines was on the tablet.
                    assert not _log_lines(shown_log) & _log_lines(screen.html), (step, viewer)
                sent += len(update.encode())
                whole += len(screen.html.encode())
        moves += 1
        if over:
            break
    assert moves > 20
    assert sent < whole * 0.8, (sent, whole)


def test_a_picktura_hand_is_not_sent_again_while_it_stays_the_same() -> None:
    """Picktura's hand takes the move's version and nonce from the state line,
    as Chasse's does: another pupil's move that leaves a hand as it was (same
    cards, same moves allowed) does not send that hand again."""
    table = started_table(game="picktura", pupils=4, bots=0, options={}, seed=5)
    shown = {seat: screen_units.Shown() for seat in range(4)}
    last: dict[int, Any] = {}
    rng = random.Random(3)
    same = 0
    for step in range(40):
        if step and not _play_any(table.pk, rng, step):
            break
        snap = rendering.snapshot(table.pk)
        assert snap is not None
        if snap.engine.is_over(snap.state):
            break
        for seat in range(4):
            context = rendering.seat_context(snap, seat)
            hand = (
                [card["id"] for card in context["hand"]],
                context["legal"],
                sorted(context["new_cards"]),
            )
            update = rendering.render_screen(snap, seat, announce=True).update(shown[seat])
            if step and hand == last.get(seat):
                same += 1
                assert 'class="pk-hand"' not in update, (step, seat)
            last[seat] = hand
    assert same > 20
