"""What a move sends each tablet, game by game: the bytes of the update
(``screen_units.Screen.update``: only the parts that changed) against the
whole screen, for four pupils and the projector, over a game played by
medium robots. Deterministic (seeded), so a template change that puts a
changing value outside the parts shows here as whole screens sent.

    .venv/bin/python benchmarks/bench_bytes.py [--moves 80]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.robots import robot_move  # noqa: E402

GAMES = {"chasse": {}, "purrfect": {}, "pinocchio": {"words_language": "fr"}, "picktura": {}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=80)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="bench-bytes-")
    os.environ["DATABASE_URL"] = ""
    os.environ["SQLITE_PATH"] = f"{workdir}/db.sqlite3"
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import translation

    call_command("migrate", verbosity=0)
    from cardgames import rendering, runtime, screen_units, services

    runtime.schedule = lambda table_id, at: None  # type: ignore[assignment]
    print(f"bytes a move sends each screen (4 pupils + the projector, up to {args.moves} moves)")
    for number, (game, options) in enumerate(GAMES.items(), 1):
        seats = [
            services.SeatSpec(player_key=f"pupil:{number}:{i}", display_name=name)
            for i, name in enumerate(("Adam", "Ambre", "Zoé", "Lou"))
        ]
        table = services.table_create(
            game=game, seats=seats, options=options, seed=5, group_key="bench", number=number
        )
        services.table_start(table=table)
        viewers: list[int | None] = [0, 1, 2, 3, None]
        shown = {viewer: screen_units.Shown() for viewer in viewers}
        rng = random.Random(2)
        sent: list[int] = []
        screens: list[int] = []
        whole = moves = 0
        with translation.override("fr"):
            snap = rendering.snapshot(table.pk)
            assert snap is not None
            for viewer in viewers:
                rendering.render_screen(snap, viewer).update(shown[viewer])
            for _step in range(args.moves):
                if snap.engine.is_over(snap.state) or not robot_move(services, snap, rng):
                    break
                moves += 1
                snap = rendering.snapshot(table.pk)
                assert snap is not None
                for viewer in viewers:
                    screen = rendering.render_screen(snap, viewer, announce=True)
                    whole += screen.skeleton != shown[viewer].skeleton
                    sent.append(len(screen.update(shown[viewer]).encode()))
                    screens.append(len(screen.html.encode()))
        sent.sort()
        print(
            f"  {game:<10s} {moves:3d} moves: sent p50 {statistics.median(sent):6.0f}"
            f"  mean {statistics.mean(sent):6.0f}  p95 {sent[int(len(sent) * 0.95)]:6.0f} bytes;"
            f" whole screen mean {statistics.mean(screens):6.0f};"
            f" whole screens sent {whole} of {len(sent)}"
        )


if __name__ == "__main__":
    main()
