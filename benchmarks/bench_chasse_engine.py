"""How fast the Chasse engine plays bot-only games, measured on the real driver.

The platform runs many tables on one core, so the figure that matters is the
whole ``play_bots`` loop (view, legal actions, bot decision and ``apply``) with
four ``medium`` bots and the default options. Target: 40,000 plays per second.

Run: ``.venv/bin/python benchmarks/bench_chasse_engine.py [games] [--profile]``
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.engines.base import play_bots
from cardgames.engines.chasse import ENGINE

TARGET_PLAYS_PER_SECOND = 40_000


def run(games: int, players: int = 4, level: str = "medium") -> tuple[int, float]:
    """Play ``games`` seeded games; return the number of plays and the CPU seconds."""
    plays = 0
    # CPU time of this process: the machine may be shared, and a wall clock
    # would measure the neighbours too.
    started = time.process_time()
    for seed in range(games):
        played = play_bots(ENGINE, players, seed, [level] * players)
        assert not played.stalled
        plays += played.actions
    return plays, time.process_time() - started


def main() -> None:
    args = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    games = int(args[0]) if args else 1000
    if "--profile" in sys.argv:
        profiler = cProfile.Profile()
        profiler.enable()
        run(games)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    run(20)  # warm the caches
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores (a busy machine slows even CPU time)")
    for level in ("medium", "easy", "hard"):
        # Best of three, as timeit does: the noise of a shared machine only adds.
        plays, seconds = min((run(games, level=level) for _ in range(3)), key=lambda r: r[1])
        line = (
            f"4 x {level}: {games} games, {plays} plays in {seconds:.2f} s: "
            f"{plays / seconds:,.0f} plays/s (CPU), {games / seconds:,.1f} games/s"
        )
        if level == "medium":
            verdict = "OK" if plays / seconds >= TARGET_PLAYS_PER_SECOND else "BELOW TARGET"
            line += f" (target {TARGET_PLAYS_PER_SECOND:,} plays/s: {verdict})"
        print(line)


if __name__ == "__main__":
    main()
