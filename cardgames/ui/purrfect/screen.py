"""What Purrfect's screens draw: the meow board, the open offers, the hand
grouped by cat and what the seat may do now (``seat_context``); then what it
has seen happen: the cards that just arrived, the last round's summary, the
ranking at the end (``events_context``). The projector and the replay draw
the public view through the same two functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardgames.engines.purrfect import HAND_SIZE, MAX_OFFER, card_cat
from cardgames.ui import art, generic
from cardgames.ui.purrfect.cats import cat_info, meow_lang, player_extras
from cardgames.ui.purrfect.end import ranking
from cardgames.ui.purrfect.sentences import explain


# ---------------------------------------------------------------- the seat
def seat_context(
    *,
    view: Mapping[str, Any],
    legal: list[dict[str, Any]],
    choice: Mapping[str, Any] | None,
    seed: int,
    version: int,
) -> dict[str, Any]:
    """The meow board, the open offers, the hand grouped by cat, and what the
    seat may do now. ``view`` is the seat's own (or the public one)."""
    meows = [
        {
            "count": entry.get("count"),
            "meow": entry.get("meow"),
            "lang": (entry.get("langs") or [""])[0],
        }
        for entry in view.get("meows") or []
    ]
    me = view.get("seat")
    acceptable = {a.get("offer") for a in legal if a.get("type") == "accept"}
    offers = [
        {
            "id": offer.get("id"),
            "seat": offer.get("seat"),
            "meow": offer.get("meow"),
            "lang": meow_lang(view, offer.get("meow")),
            "mine": offer.get("seat") == me and me is not None,
            "can_accept": offer.get("id") in acceptable,
        }
        for offer in view.get("offers") or []
    ]
    locked = set(view.get("locked") or [])
    groups: list[dict[str, Any]] = []
    for card in view.get("hand") or []:
        cat = card_cat(int(card))
        if not groups or groups[-1]["cat"] != cat:
            groups.append({**cat_info(cat), "cards": []})
        groups[-1]["cards"].append({"id": card, "locked": card in locked})
    for group in groups:
        group["count"] = len(group["cards"])
    own = view.get("own_offer")
    own_offer = None
    if own:
        own_cards = list(own.get("cards") or [])
        own_offer = {
            "id": own.get("id"),
            "meow": next((o["meow"] for o in offers if o["id"] == own.get("id")), ""),
            "cards": own_cards,
            "cat": cat_info(card_cat(int(own_cards[0]))) if own_cards else None,
        }
        own_offer["lang"] = meow_lang(view, own_offer["meow"])
    kinds = {a.get("type") for a in legal}
    return {
        "meow_board": meows,
        "offers": offers,
        "other_offers": [o for o in offers if not o["mine"]],
        "hand_groups": groups,
        "own_offer": own_offer,
        "can_offer": "offer" in kinds,
        "can_accept": "accept" in kinds,
        "can_withdraw": "withdraw" in kinds,
        "can_claim": "claim" in kinds,
        "max_offer": MAX_OFFER,
        "hand_size": HAND_SIZE,
        "paws_to_win": view.get("paws_to_win"),
        "round": view.get("round"),
        "player_extras": player_extras(view),
        "paw_src": art.purrfect_paw_src(),
        "back_src": art.purrfect_back_src(),
    }


# ---------------------------------------------------------------- what happened
# How long (in events) the projector keeps showing the end of the last round.
PUBLIC_SUMMARY_EVENTS = 16


def _round_summary(
    history: Sequence[Mapping[str, Any]], seat_names: Sequence[str], me: int | None
) -> dict[str, Any] | None:
    """The last round's end (claimant, paws won, best cat counts), shown until
    the seat acts in the new round: a child reads slowly."""
    for index in range(len(history) - 1, -1, -1):
        event = history[index]
        if event.get("type") != "round_over":
            continue
        if me is None and len(history) - index > PUBLIC_SUMMARY_EVENTS:
            return None  # the projector shows it a while, then the new round
        if me is not None and any(
            later.get("seat") == me and later.get("type") in ("offer_made", "offer_withdrawn", "claim_failed")
            for later in history[index + 1 :]
        ):
            return None
        if me is not None and any(
            later.get("type") == "trade_done" and me in (later.get("seats") or [])
            for later in history[index + 1 :]
        ):
            return None
        gained = list(event.get("paws_gained") or [])
        best = list(event.get("best_counts") or [])
        claimant = event.get("claimant")
        rows = [
            {
                "seat": seat,
                "name": generic.seat_name(seat_names, seat),
                "is_me": seat == me,
                "gained": gained[seat] if seat < len(gained) else 0,
                "gained_range": range(gained[seat] if seat < len(gained) else 0),
                "best": best[seat] if seat < len(best) else 0,
                "claimant": seat == claimant,
            }
            for seat in range(len(seat_names))
        ]
        return {
            "round": event.get("round"),
            "claimant": generic.seat_name(seat_names, claimant) if claimant is not None else "",
            "stalled": bool(event.get("stalled")),
            "rows": rows,
        }
    return None


def _arrived(history: Sequence[Mapping[str, Any]], me: int | None) -> dict[str, Any] | None:
    """The cards this seat received in its latest trade of this round (they
    arrive with a short animation), and from whom."""
    if me is None:
        return None
    for event in reversed(history):
        kind = event.get("type")
        if kind == "round_started":
            return None
        if kind == "cards_received":
            return {"offer": event.get("offer"), "cards": list(event.get("cards") or []), "from": event.get("from")}
        if kind == "offer_made" and event.get("seat") == me:
            return None
    return None


def events_context(
    *,
    history: list[dict[str, Any]],
    view: Mapping[str, Any],
    seat: int | None,
    seat_names: Sequence[str],
) -> dict[str, Any]:
    """What this seat has seen happen, explained: recent lines, the cards that
    just arrived, the last round's summary, the ranking at the end, and whether
    the "how to play" steps open by themselves (before the seat's first move)."""
    acted = seat is not None and any(
        (e.get("seat") == seat and e.get("type") in ("offer_made", "offer_withdrawn", "claim_failed", "claim_succeeded"))
        or (e.get("type") == "trade_done" and seat in (e.get("seats") or []))
        for e in history
    )
    arrived = _arrived(history, seat)
    mistaken = (
        seat is not None
        and not view.get("can_claim", True)
        and not view.get("over")
    )
    return {
        **generic.event_log(history, lambda index: explain(history[index], seat_names, seat)),
        "arrived": arrived,
        "arrived_ids": set(arrived["cards"]) if arrived else set(),
        "arrived_from": generic.seat_name(seat_names, arrived["from"]) if arrived else "",
        "round_summary": _round_summary(history, seat_names, seat),
        "ranking": ranking(view, seat_names) if view.get("over") else [],
        "how_to_play_open": seat is not None and not acted and not view.get("over"),
        "claim_mistaken": mistaken,
    }
