"""``python manage.py simulate chasse --games 1000 --players 4 --levels hard,easy,easy,easy``"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardgames import engines
from cardgames.engines.base import BOT_LEVELS, DEFAULT_BOT_LEVEL
from cardgames.simulation import simulate


class Command(BaseCommand):
    help = "Play seeded bot-only games and print win rates, game length and speed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", choices=engines.names())
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--levels", default=DEFAULT_BOT_LEVEL, help="comma-separated, one per seat (cycled)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--rotate", action="store_true", help="shift the levels by one seat each game")

    def handle(self, *args: Any, **options: Any) -> None:
        levels = [level.strip() for level in options["levels"].split(",") if level.strip()]
        bad = [level for level in levels if level not in BOT_LEVELS]
        if bad or not levels:
            raise CommandError(f"Unknown bot level(s): {', '.join(bad) or '(none)'}; use {', '.join(BOT_LEVELS)}.")
        engine = engines.get(options["game"])
        if not engine.min_players <= options["players"] <= engine.max_players:
            raise CommandError(
                f"{engine.name} is for {engine.min_players} to {engine.max_players} players."
            )
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        report = simulate(
            options["game"],
            games=options["games"],
            players=options["players"],
            levels=levels,
            seed=options["seed"],
            rotate=options["rotate"],
        )
        for line in report.lines():
            self.stdout.write(line)
