"""The parts of a screen drawn once per change and copied into every screen of
that change (``{% shared %}``), or kept from one change to the next
(``{% kept %}``: a player's line, a hand, "how to play"), never change what any
viewer is shown: a kept part whose key missed a value it is drawn from would
show a stale line here.

At every step of random games, each seat's and the public screen drawn with one
common ``shared_parts`` dict (in a random order of viewers, as sockets come)
equal, byte for byte, the same screen drawn alone. A shared part that depended
on the seat (a hand, "toi", a private notice) would show one seat's screen to
another and fail here."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.utils import translation

from cardgames import rendering, services
from tests.cardgames.factories import started_table

pytestmark = pytest.mark.django_db

# Each render draws fresh move nonces: the only bytes that may differ.
NONCE = re.compile(r'name="nonce" value="[0-9a-f]+(-[0-9a-z]+)?"')


def _same(html: str) -> str:
    return NONCE.sub('name="nonce" value=""', html)


@pytest.mark.parametrize("seed", [3, 11, 29])
@pytest.mark.parametrize("announce", ["shown", "typed"])
def test_every_screen_is_the_same_drawn_alone_or_with_the_common_parts(
    seed: int, announce: str
) -> None:
    table = started_table(pupils=3, bots=1, options={"announce": announce}, seed=seed)
    rng = random.Random(seed)
    viewers: list[int | None] = [0, 1, 2, 3, None]
    with translation.override(rng.choice(["fr", "de", "en"])):
        for step in range(25):
            snap = rendering.snapshot(table.pk)
            assert snap is not None and snap.state is not None
            parts: dict[tuple[object, ...], str] = {}
            rng.shuffle(viewers)
            for viewer in viewers:
                together = rendering.render_screen(snap, viewer, announce=True, shared_parts=parts)
                alone = rendering.render_screen(snap, viewer, announce=True)
                assert _same(together.html) == _same(alone.html), (step, viewer)
            assert parts, "the Chasse screen has parts in common"
            if snap.engine.is_over(snap.state):
                break
            engine, state = snap.engine, snap.state
            current = engine.view(state, None)["current_seat"]
            action = engine.bot(rng.choice(["easy", "medium"]))(
                engine.view(state, current),
                engine.legal_actions(state, current),
                rng,
                engine.history(state, current),
            )
            if isinstance(action.get("announce"), int) and rng.random() < 0.3:
                action["announce"] += rng.choice([-10, 1])  # a wrong total now and then
            services.action_submit(
                table=table,
                seat=current,
                action=action,
                version=snap.version,
                nonce=f"step-{step}",
                player_key=snap.seats[current].player_key,
            )


@pytest.mark.parametrize(
    "game,options",
    [("chasse", {"announce": "typed"}), ("purrfect", {}), ("pinocchio", {}), ("picktura", {})],
)
def test_the_screens_drawn_from_a_committed_move_equal_those_of_a_fresh_read(
    game: str,
    options: dict[str, object],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a move, this process draws its screens from the table as the move
    committed it (``result.snapshot``) instead of reading it again: every viewer
    must see exactly what a fresh read would show."""
    from cardgames import runtime

    # The test plays every seat itself: no robot timer left to fire on the
    # database after the test (it did, as a warning in every run).
    monkeypatch.setattr(runtime, "schedule", lambda table_id, at: None)
    table = started_table(game=game, pupils=3, bots=1, options=options, seed=5)
    rng = random.Random(5)
    for step in range(20):
        snap = rendering.snapshot(table.pk)
        assert snap is not None and snap.state is not None
        if snap.engine.is_over(snap.state):
            break
        engine, state = snap.engine, snap.state
        movers = [s for s in range(4) if engine.legal_actions(state, s)]
        seat = rng.choice(movers)
        action = engine.bot("easy")(
            engine.view(state, seat), engine.legal_actions(state, seat), rng, engine.history(state, seat)
        )
        if action is None:
            continue
        with django_capture_on_commit_callbacks(execute=True):
            result = services.action_submit(
                table=table,
                seat=seat,
                action=action,
                version=snap.version,
                nonce=f"after-{step}",
                player_key=snap.seats[seat].player_key,
            )
        drawn = result.snapshot
        # The broadcast's sockets of this process get that very snapshot, so
        # the mover's screen and theirs share the parts they have in common.
        stamp = services.broadcast_stamp_take(table_id=table.pk)
        assert services.move_after(stamp=stamp) is drawn
        read = rendering.snapshot(table.pk)
        assert read is not None and drawn.version == read.version
        for viewer in (0, 1, 2, 3, None):
            assert _same(rendering.render_screen(drawn, viewer).html) == _same(
                rendering.render_screen(read, viewer).html
            ), (step, viewer)


def test_a_worker_shares_a_changes_parts_without_keeping_its_snapshot_alive() -> None:
    """The render thread's cache of common parts (``live_screens``) serves every
    screen of one snapshot, and lets the snapshot go once nothing else holds
    it: a worker that kept every table's past states had each full pass of the
    garbage collector walk them while every socket waited."""
    import gc
    import weakref

    from cardgames import live_screens

    table = started_table(pupils=3, bots=1, seed=13)
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    stamp = f"test-{table.pk}"
    first = live_screens._shared_screen(snap, stamp, 0, False, "", "fr")
    parts = live_screens._kept_parts((snap.table.pk, stamp, "fr"), snap)
    assert parts, "the first screen drew the common parts"
    before = dict(parts)
    second = live_screens._shared_screen(snap, stamp, 1, False, "", "fr")
    kept = live_screens._kept_parts((snap.table.pk, stamp, "fr"), snap)
    assert kept is parts and kept == before, "copied, not drawn again"
    assert first.html != second.html  # two seats, two hands

    # Another read under the same stamp never takes the first one's parts.
    again = rendering.snapshot(table.pk)
    assert again is not None
    live_screens._shared_screen(again, stamp, 2, False, "", "fr")
    assert live_screens._kept_parts((again.table.pk, stamp, "fr"), again) is not parts

    gone = weakref.ref(snap)
    del snap, again, first, second
    gc.collect()
    assert gone() is None, "the cache kept a snapshot alive"
