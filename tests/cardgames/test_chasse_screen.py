"""The Chasse tablet screen's words: what a pupil reads after a move."""

from __future__ import annotations

from typing import Any

from cardgames.ui.chasse import LOG_LINES, RECENT_LINES, events_context

NAMES = ["Adam", "Robot Pomme 1"]
FIVE = {"id": 7, "kind": "add", "a": 2, "b": 3, "value": 5}
FOUR = {"id": 8, "kind": "add", "a": 1, "b": 3, "value": 4}


def _play(seat: int, before: int, card: dict[str, Any], announced: int | None) -> dict[str, Any]:
    after = before + card["value"]
    return {
        "type": "card_played",
        "seat": seat,
        "card": card,
        "before": before,
        "after": after,
        "announced": announced,
        "correct": announced == after,
    }


def _context(history: list[dict[str, Any]]) -> dict[str, Any]:
    view = {"tokens": [2, 3], "direction": 1, "over": False}
    return events_context(history=history, view=view, seat=0, seat_names=NAMES)


def test_own_penalty_stays_explained_after_a_robot_plays() -> None:
    history = [
        {"type": "round_started", "round": 1, "first_seat": 0},
        _play(0, 45, FIVE, 50),
        {"type": "token_lost", "seat": 0, "reason": "multiple_of_ten", "tokens_left": 2},
        _play(1, 50, FOUR, 54),
    ]
    context = _context(history)
    texts = [line["text"] for line in context["mine"]["lines"]]
    assert texts == ["45 + 5 = 50 : c'est un multiple de 10, tu perds une carte blanche."]
    assert context["feedback"]["correct"] and context["feedback"]["sum"] == "45 + 5 = 50"
    # The pinned explanation is not the newest move, so it does not animate again.
    assert context["mine"]["new"] is False
    # Newest first in the short history, and only the robot's move is "new".
    assert context["recent"][0]["text"].startswith("Robot Pomme 1 joue 1 + 3")
    # The pinned penalty is said once on the screen: not again in the history.
    assert [line["new"] for line in context["recent"]] == [True, False]
    assert texts[0] not in [line["text"] for line in context["recent"]]
    assert texts[0] not in [line["text"] for line in context["log_lines"]]


def test_feedback_ends_with_its_round() -> None:
    """'Bravo, c'est juste ! 98 - 20 = 78' stayed on into the next round, beside
    a total back at 0 (issue 48): the feedback now ends with its round."""
    history = [
        _play(0, 20, FIVE, 26),
        _play(1, 25, FIVE, 30),
        {"type": "token_lost", "seat": 1, "reason": "multiple_of_ten", "tokens_left": 2},
        {"type": "round_over", "round": 1, "total": 30, "loser": 1},
        {"type": "round_started", "round": 2, "first_seat": 1},
        _play(1, 0, FOUR, 4),
    ]
    assert _context(history[:4])["feedback"] == {
        "correct": False,
        "announced": 26,
        "sum": "20 + 5 = 25",
    }
    context = _context(history)
    assert context["feedback"] is None
    history.append(_play(0, 4, FIVE, 9))
    context = _context(history)
    assert context["feedback"]["correct"] is True
    assert context["mine"]["lines"] == []  # a right answer, no penalty: only the tick


def test_history_is_short_and_the_side_log_a_little_longer() -> None:
    history = [_play(n % 2, n, FOUR, n + 4) for n in range(12)]
    context = _context(history)
    assert len(context["recent"]) == RECENT_LINES
    assert len(context["log_lines"]) == LOG_LINES


def test_a_new_round_says_who_starts_in_good_french() -> None:
    """"Manche 2 : tu commences." to the pupil who starts, never "tu commence"."""

    def round_lines(first_seat: int) -> list[str]:
        history = [
            _play(0, 25, FIVE, 30),
            {"type": "token_lost", "seat": 0, "reason": "multiple_of_ten", "tokens_left": 1},
            {"type": "round_over", "round": 1, "total": 30, "loser": 0},
            {"type": "round_started", "round": 2, "first_seat": first_seat},
        ]
        return [line["text"] for line in _context(history)["latest"]]

    assert "Manche 2 : tu commences." in round_lines(0)
    assert "Manche 2 : Robot Pomme 1 commence." in round_lines(1)
