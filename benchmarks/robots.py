"""A benchmark's players: medium robots moving through ``services.action_submit``,
as a pupil's move would arrive (the benchmarks import Django late, so the
services module is handed in)."""

from __future__ import annotations

import random
from typing import Any


def robot_move(services: Any, snap: Any, rng: random.Random) -> bool:
    """A seat that may act (in Purrfect anyone may, at once) does what a medium
    robot would. False when nobody can act."""
    engine, state = snap.engine, snap.state
    movers = [seat for seat in range(len(snap.seats)) if engine.legal_actions(state, seat)]
    if not movers:
        return False
    seat = rng.choice(movers)
    legal = engine.legal_actions(state, seat)
    action = engine.bot("medium")(engine.view(state, seat), legal, rng, engine.history(state, seat))
    services.action_submit(
        table=snap.table, seat=seat, action=action or legal[0], version=snap.version,
        nonce=f"bench-{snap.version}", player_key=snap.seats[seat].player_key,
    )
    return True
