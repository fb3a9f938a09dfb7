"""What Pinocchio's screens draw, under one key, ``pn``: the last
announcement, the seat's drawn card and the grid of announcements it may
make, every player's noses and pile (``seat_context``); then what the seat
has seen happen: the last doubt's turned card, the ranking at the end
(``events_context``). The projector and the replay draw the public view
through the same two functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardgames.engines.pinocchio import ALL_FACES, allowed_faces
from cardgames.ui import generic
from cardgames.ui.pinocchio.end import ranking
from cardgames.ui.pinocchio.faces import face_info, face_of, nose_width
from cardgames.ui.pinocchio.sentences import explain, must_follow_text, verdict
from cardgames.ui.pinocchio.words import SPEECH_LANG, table_language


# ---------------------------------------------------------------- the seat
def _grid(
    lang: str, to_follow: Mapping[str, Any] | None, drawn: Mapping[str, Any] | None
) -> tuple[list[dict[str, Any]], bool]:
    """Every announcement as a tile, greyed with the reason when it does not
    follow the last one, the drawn card's own marked; and whether the drawn
    card cannot be announced truthfully (the seat must lie)."""
    allowed = set(
        allowed_faces(None if to_follow is None else (to_follow["garment"], to_follow["colour"]))
    )
    why = must_follow_text(lang, to_follow) if to_follow is not None else ""
    grid: list[dict[str, Any]] = []
    for garment, colour in ALL_FACES:
        tile = face_info(lang, garment, colour)
        tile["allowed"] = (garment, colour) in allowed
        tile["why"] = "" if tile["allowed"] else why
        tile["mine"] = drawn is not None and drawn["key"] == tile["key"]
        grid.append(tile)
    forced_lie = drawn is not None and (drawn["garment"], drawn["colour"]) not in allowed
    return grid, forced_lie


def _seats(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player's noses (the stretchable nose's width too), pile and turn."""
    noses = [int(n or 0) for n in view.get("noses") or []]
    piles = [int(n or 0) for n in view.get("pile_sizes") or []]
    current = view.get("current_seat")
    return [
        {
            "index": index,
            "noses": count,
            "nose_width": nose_width(count),
            "pile": piles[index] if index < len(piles) else 0,
            "is_current": index == current,
        }
        for index, count in enumerate(noses)
    ]


def _revealed(view: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
    """The cards doubts turned over, newest first, each beside its announcement."""
    revealed = []
    for item in reversed(view.get("revealed") or []):
        card = face_of(lang, item.get("card"))
        announced = face_of(lang, item.get("announced"))
        if card is None or announced is None:
            continue
        revealed.append(
            {
                "seat": item.get("seat"),
                "card": card,
                "announced": announced,
                "truthful": card["key"] == announced["key"],
            }
        )
    return revealed


def seat_context(
    *,
    view: Mapping[str, Any],
    legal: list[dict[str, Any]],
    choice: Mapping[str, Any] | None,
    seed: int,
    version: int,
) -> dict[str, Any]:
    """Everything the Pinocchio screen draws from the seat's own view (or the
    public one), under one key, ``pn``."""
    lang = table_language(view)
    me = view.get("seat")
    kinds = {action.get("type") for action in legal}
    can_announce = "announce" in kinds
    last = view.get("last_announcement")
    to_follow = None if view.get("announcement_free") or not isinstance(last, Mapping) else last
    drawn = face_of(lang, view.get("drawn_card"))
    grid, forced_lie = _grid(lang, to_follow, drawn) if can_announce else ([], False)
    piles = [int(n or 0) for n in view.get("pile_sizes") or []]
    return {
        "pn": {
            "lang": lang,
            "speech": SPEECH_LANG[lang],
            "me": me,
            "my_pile": piles[me] if isinstance(me, int) and 0 <= me < len(piles) else None,
            "rangement": int(view.get("rangement_count") or 0),
            "removed": int(view.get("removed_count") or 0),
            "last": face_of(lang, last),
            "last_seat": last.get("seat") if isinstance(last, Mapping) else None,
            "last_doubtable": bool(last.get("doubtable")) if isinstance(last, Mapping) else True,
            "can_judge": "doubt" in kinds,
            "can_announce": can_announce,
            # Announcing now without having judged: the last announcement followed
            # a doubt, so the screen says why there was no "Je doute !".
            "no_doubt_why": can_announce
            and isinstance(last, Mapping)
            and not last.get("doubtable", True),
            "free": bool(view.get("announcement_free")),
            "next_doubtable": bool(view.get("announcement_doubtable")),
            "drawn": drawn,
            "forced_lie": forced_lie,
            "grid": grid,
            "my_last": face_of(lang, view.get("my_last_laid")),
            "seats": _seats(view),
            "revealed": _revealed(view, lang),
        }
    }


# ---------------------------------------------------------------- what happened
def _reveal(
    history: Sequence[Mapping[str, Any]], lang: str, seat_names: Sequence[str], me: int | None
) -> dict[str, Any] | None:
    """The last doubt's turned card and its verdict, shown until the next
    judgement (a child reads slowly). ``new`` while nothing was laid since: only
    then does the card flip."""
    for index in range(len(history) - 1, -1, -1):
        event = history[index]
        kind = event.get("type")
        if kind == "believed":
            return None
        if kind != "doubted":
            continue
        card = face_of(lang, event.get("card"))
        announced = face_of(lang, event.get("announced"))
        if card is None or announced is None:
            return None
        later = history[index + 1 :]
        truthful = bool(event.get("truthful"))
        loser = event.get("seat") if truthful else event.get("target")
        return {
            "key": index,
            "new": not any(e.get("type") == "card_laid" for e in later),
            "card": card,
            "announced": announced,
            "truthful": truthful,
            "doubter": generic.seat_name(seat_names, event.get("seat")),
            "target": generic.seat_name(seat_names, event.get("target")),
            "loser": loser,
            "mine": me is not None and me in (event.get("seat"), event.get("target")),
            "verdict": verdict(event, lang, seat_names, me),
        }
    return None


def events_context(
    *,
    history: list[dict[str, Any]],
    view: Mapping[str, Any],
    seat: int | None,
    seat_names: Sequence[str],
) -> dict[str, Any]:
    """What this seat has seen happen, explained in the table's words: the
    recent lines, the last reveal, the ranking at the end, whose announcement
    is being judged, and whether "how to play" opens by itself."""
    lang = table_language(view)
    last = view.get("last_announcement")
    acted = seat is not None and any(
        e.get("seat") == seat and e.get("type") in ("card_laid", "doubted", "believed")
        for e in history
    )
    noses = [int(n or 0) for n in view.get("noses") or []]
    over = bool(view.get("over"))
    return {
        **generic.event_log(history, lambda index: explain(history[index], seat_names, seat, lang)),
        "reveal": _reveal(history, lang, seat_names, seat),
        "ranking": ranking(view, seat_names) if over else [],
        # The view names no winners: fewest noses win, ties share.
        "winners": [generic.seat_name(seat_names, s) for s, n in enumerate(noses) if n == min(noses)]
        if over and noses
        else [],
        "last_name": generic.seat_name(seat_names, last.get("seat")) if isinstance(last, Mapping) else "",
        "how_to_play_open": seat is not None and not acted and not view.get("over"),
    }
