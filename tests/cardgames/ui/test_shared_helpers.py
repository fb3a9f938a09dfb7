"""The helpers every game's adapter shares (``cardgames.ui.generic``): how a
seat is named and how the end screen's podium is ranked, written once."""

from __future__ import annotations

from cardgames.ui import generic
from cardgames.ui.purrfect.end import ranking as purrfect_ranking

NAMES = ["Inès", "Léo", "Zoé", "Max"]


def test_a_seat_is_named_only_by_a_seat_number_of_the_table() -> None:
    assert generic.seat_name(NAMES, 2) == "Zoé"
    # ``True`` is an ``int`` to Python, never seat 1.
    for not_a_seat in (True, -1, 4, None, "1"):
        assert generic.seat_name(NAMES, not_a_seat) == "Quelqu'un"


def test_equal_standings_share_a_place_and_the_next_place_is_skipped() -> None:
    score = [5, 3, 5, 1]
    rows = generic.ranking_rows(
        [0, 2, 1, 3], NAMES, lambda seat: {"score": score[seat]}, standing=lambda seat: score[seat]
    )
    assert [(r["name"], r["place"], r["medal"], r["score"]) for r in rows] == [
        ("Inès", 1, "🥇", 5),
        ("Zoé", 1, "🥇", 5),
        ("Léo", 3, "🥉", 3),
        ("Max", 4, "", 1),
    ]


def test_without_a_standing_every_seat_has_its_own_place() -> None:
    rows = generic.ranking_rows([3, 1], NAMES, lambda seat: {})
    assert [(r["seat"], r["place"], r["medal"]) for r in rows] == [(3, 1, "🥇"), (1, 2, "🥈")]


def test_a_winner_never_shares_a_place_with_a_player_who_did_not_win() -> None:
    rows = purrfect_ranking({"paws": [2, 2, 1, 2], "winners": [1]}, NAMES)
    assert [(r["name"], r["place"], r["winner"]) for r in rows] == [
        ("Léo", 1, True),
        ("Inès", 2, False),
        ("Max", 2, False),
        ("Zoé", 4, False),
    ]
