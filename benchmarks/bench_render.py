"""What one screen costs: the render of a Chasse table for a seat and for the
public, in milliseconds and bytes, after a few moves.

The live path renders once per change per seat (``cardgames.consumers``): this
is the CPU a move costs a worker, before any socket is written. Run it before
and after touching a seat template or ``rendering.seat_context``.

    .venv/bin/python benchmarks/bench_render.py [--renders 300] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--renders", type=int, default=300)
    parser.add_argument("--moves", type=int, default=6, help="bot moves played before measuring")
    parser.add_argument("--profile", action="store_true", help="print the top functions (cProfile)")
    parser.add_argument("--show", help="print this unit of the seat screen (e.g. cg-hand)")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="bench-render-")
    os.environ["DATABASE_URL"] = ""
    os.environ["SQLITE_PATH"] = f"{workdir}/db.sqlite3"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import translation

    call_command("migrate", verbosity=0)
    from cardgames import rendering, runtime, services
    from cardgames.services import bots

    runtime.schedule = lambda table_id, at: None  # type: ignore[assignment]
    seats = [
        services.SeatSpec(player_key=f"pupil:{i}", display_name=name)
        for i, name in enumerate(("Adam", "Ambre", "Zoé"))
    ]
    table = services.table_create(
        game="chasse",
        seats=[*seats, services.bot_seat(level="medium", number=1)],
        options={"announce": "shown", "tokens": 5, "target": 200},
        seed=7,
        group_key="bench",
        number=1,
    )
    services.table_start(table=table)
    # Everyone a robot for a few moves, so the log and the board have content.
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    for _ in range(args.moves):
        snap = rendering.snapshot(table.pk)
        assert snap is not None and snap.state is not None
        current = snap.engine.view(snap.state, None).get("current_seat")
        action = snap.engine.bot("medium")(
            snap.engine.view(snap.state, current),
            snap.engine.legal_actions(snap.state, current),
            __import__("random").Random(1),
            snap.engine.history(snap.state, current),
        )
        services.action_submit(
            table=table, seat=current, action=action, version=snap.version,
            nonce=f"bench-{snap.version}", player_key=snap.seats[current].player_key,
        )
    del bots
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    viewers: list[int | None] = [0, 1, 2, None]
    with translation.override("fr"):
        for viewer in viewers:  # warm the template cache
            rendering.render_screen(snap, viewer)
        profiler = cProfile.Profile() if args.profile else None
        timings: dict[str, list[float]] = {}
        if profiler:
            profiler.enable()
        for _ in range(args.renders):
            # One change: every viewer's screen, the common parts drawn once.
            parts: dict[tuple[object, ...], str] = {}
            change = time.perf_counter()
            for viewer in viewers:
                start = time.perf_counter()
                rendering.render_screen(snap, viewer, announce=True, shared_parts=parts)
                timings.setdefault("public" if viewer is None else "seat", []).append(
                    (time.perf_counter() - start) * 1000
                )
            timings.setdefault("change", []).append((time.perf_counter() - change) * 1000)
        if profiler:
            profiler.disable()
        t0 = time.perf_counter()
        for _ in range(args.renders):
            rendering.snapshot(table.pk)
        read_ms = (time.perf_counter() - t0) * 1000 / args.renders
        seat_screen = rendering.render_screen(snap, 0)
        public_screen = rendering.render_screen(snap, None)
    print(
        f"Chasse table after {args.moves} moves, {args.renders} changes"
        " (a change: seats 0, 1, 2 and the public screen)"
    )
    for kind, values in timings.items():
        values.sort()
        print(
            f"  {kind:6s} render  p50 {statistics.median(values):6.2f} ms"
            f"  p95 {values[int(len(values) * 0.95)]:6.2f} ms"
        )
    print(f"  snapshot read     {read_ms:6.2f} ms")
    for name, screen in (("seat", seat_screen), ("public", public_screen)):
        units = sorted(screen.units.items(), key=lambda kv: -len(kv[1]))
        print(f"  {name} screen {len(screen.html.encode())} bytes; units: "
              + ", ".join(f"{key} {len(value.encode())}" for key, value in units[:8]))
    if args.show:
        print(seat_screen.units.get(args.show, public_screen.units.get(args.show, "")))
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
