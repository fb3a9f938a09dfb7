"""What one screen costs: the render of a Chasse table for a seat and for the
public, in milliseconds and bytes, after a few moves.

The live path renders once per change per seat (``cardgames.live_screens``): this
is the CPU a move costs a worker, before any socket is written. Run it before
and after touching a seat template or ``rendering.seat_context``.

    .venv/bin/python benchmarks/bench_render.py [--renders 300] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.robots import robot_move  # noqa: E402


def main() -> None:
    """Each measurement after the other, as the report prints them. Long on
    purpose: a benchmark is read top to bottom as the run it makes."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--renders", type=int, default=300)
    parser.add_argument("--moves", type=int, default=6, help="bot moves played before measuring")
    parser.add_argument("--profile", action="store_true", help="print the top functions of the played changes (cProfile)")
    parser.add_argument("--sort", default="cumulative", help="profile order (cumulative, tottime)")
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
    from cardgames import rendering, runtime, screen_units, services
    from cardgames.services import bots

    runtime.schedule = lambda table_id, at: None  # type: ignore[assignment]

    def started(*, seed: int, number: int) -> Any:
        """A Chasse table of three pupils and a robot, dealt and playing."""
        seats = [
            services.SeatSpec(player_key=f"pupil:{number}:{i}", display_name=name)
            for i, name in enumerate(("Adam", "Ambre", "Zoé"))
        ]
        created = services.table_create(
            game="chasse",
            seats=[*seats, services.bot_seat(level="medium", number=1)],
            options={"announce": "shown", "tokens": 5, "target": 200},
            seed=seed,
            group_key="bench",
            number=number,
        )
        services.table_start(table=created)
        return created

    table = started(seed=7, number=1)
    # Everyone a robot for a few moves, so the log and the board have content.
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    for _ in range(args.moves):
        snap = rendering.snapshot(table.pk)
        assert snap is not None
        robot_move(services, snap, random.Random(1))
    del bots
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    viewers: list[int | None] = [0, 1, 2, None]
    with translation.override("fr"):
        for viewer in viewers:  # warm the template cache
            rendering.render_screen(snap, viewer)
        profiler = cProfile.Profile() if args.profile else None
        timings: dict[str, list[float]] = {}
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
        # The figures above draw one snapshot again and again, so every part
        # kept from one change to the next is found kept. A real change brings
        # a new snapshot: a table played on, each change's screens drawn once.
        fresh: list[float] = []
        # What each socket is sent (``Screen.update``, on the event loop): the
        # units that changed since its last screen, per change for 4 sockets.
        updates: list[float] = []
        live_shown = {viewer: screen_units.Shown() for viewer in viewers}
        live = started(seed=11, number=2)
        for _ in range(args.moves + 60):
            now = rendering.snapshot(live.pk)
            assert now is not None
            if now.engine.is_over(now.state):
                break
            robot_move(services, now, random.Random(1))
            now = rendering.snapshot(live.pk)
            assert now is not None
            fresh_parts: dict[tuple[object, ...], str] = {}
            if profiler:  # the honest path: what a real change costs
                profiler.enable()
            change = time.perf_counter()
            screens = [
                rendering.render_screen(now, viewer, announce=True, shared_parts=fresh_parts)
                for viewer in viewers
            ]
            fresh.append((time.perf_counter() - change) * 1000)
            start = time.perf_counter()
            for viewer, screen in zip(viewers, screens, strict=True):
                screen.update(live_shown[viewer])
            updates.append((time.perf_counter() - start) * 1000)
            if profiler:
                profiler.disable()
        timings["played"] = fresh
        timings["updates"] = updates[1:]  # the first is each socket's whole screen
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
    labels = {
        "seat": "seat screen, same snapshot again",
        "public": "public screen, same snapshot again",
        "change": "a change (4 screens), same snapshot",
        "played": "a change (4 screens), new each move",
        "updates": "its 4 updates (what each socket is sent)",
    }
    for kind, values in timings.items():
        values.sort()
        print(
            f"  {labels[kind]:<38s} p50 {statistics.median(values):6.2f} ms"
            f"  p95 {values[int(len(values) * 0.95)]:6.2f} ms  (n={len(values)})"
        )
    print(f"  snapshot read     {read_ms:6.2f} ms")
    for name, screen in (("seat", seat_screen), ("public", public_screen)):
        units = sorted(screen.units.items(), key=lambda kv: -len(kv[1]))
        print(f"  {name} screen {len(screen.html.encode())} bytes; units: "
              + ", ".join(f"{key} {len(value.encode())}" for key, value in units[:8]))
    # One more move: what each socket is sent (only the units that changed).
    with translation.override("fr"):
        shown = {viewer: screen_units.Shown() for viewer in viewers}
        for viewer in viewers:
            rendering.render_screen(snap, viewer).update(shown[viewer])
        current = snap.engine.view(snap.state, None).get("current_seat")
        robot_move(services, snap, random.Random(1))
        after = rendering.snapshot(table.pk)
        assert after is not None
        print(f"  one move by seat {current}: bytes sent to each screen")
        total = 0
        for viewer in viewers:
            before_units = dict(shown[viewer].units)
            message = rendering.render_screen(after, viewer, announce=True).update(shown[viewer])
            changed = [k for k, v in shown[viewer].units.items() if before_units.get(k) != v]
            total += len(message.encode())
            print(f"    {'public' if viewer is None else f'seat {viewer}'}: {len(message.encode())} bytes ({', '.join(changed)})")
        print(f"    mean {total / len(viewers):.0f} bytes per screen")
    if args.show:
        print(seat_screen.units.get(args.show, public_screen.units.get(args.show, "")))
    if profiler:
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(45)


if __name__ == "__main__":
    main()
