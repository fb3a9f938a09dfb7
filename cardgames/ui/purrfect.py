"""Purrfect: the game's UI (rules: ``docs/rules/purrfect.md``).

Everything a page needs to know about Purrfect lives here: the teacher's words
for the options, the form → action of the tablet, the sentences a child reads
(refusals and events), the contexts of the seat, public and monitor views, and
the "how to play" steps. Templates: ``templates/cardgames/purrfect/``; the
browser side (choosing cards, the 🔊 button) is ``static/js/purrfect.js``.

Secrecy: the view of a seat holds only that seat's cards. An offer is shown by
its meow word only, as one face-down pile whatever its size, so nothing on the
screen (not even the number of card backs) gives its count or its cat away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgames.engines.base import IllegalAction
from cardgames.engines.purrfect import CAT_NAMES, HAND_SIZE, MAX_OFFER, POSES, card_cat
from cardgames.names import counts_line, name_mark, names_place
from cardgames.parsing import whole_number
from cardgames.ui import ReportColumn, art, generic

TWO_STEP = False
SEAT_TEMPLATE = "cardgames/purrfect/seat.html"
PUBLIC_TEMPLATE = "cardgames/purrfect/public.html"
SCRIPT = "js/purrfect.js"

TITLE = _("Purrfect")
PITCH = _("Échangez des cartes en secret pour réunir 9 chats pareils. Tout le monde joue en même temps.")
ICON = art.purrfect_cat_src(0)

# ---------------------------------------------------------------- options
OPTION_LABELS: dict[str, dict[str, Promise]] = {
    "paws_to_win": {
        "label": _("Pattes pour gagner"),
        "help": _("La partie s'arrête quand quelqu'un a autant de pattes (1 à 15)."),
    },
    "round_actions": {
        "label": _("Coups au plus par manche"),
        "help": _("Une manche qui n'avance plus s'arrête après ce nombre de coups (100 à 2000)."),
    },
    "new_meows_each_round": {
        "label": _("Nouveaux miaous à chaque manche"),
        "help": _("Sinon, le tableau des miaous reste le même toute la partie (plus facile)."),
    },
}
CHOICE_LABELS: dict[str, dict[str, Promise]] = {}

# ---------------------------------------------------------------- how to play
# (picture, sentence): a picture is a static path or an emoji.
HOW_TO_PLAY: list[tuple[str, Promise]] = [
    (art.purrfect_cat_src(0), _("Le but : 9 cartes du même chat.")),
    ("🙀", _("Touche 1 à 4 cartes d'un chat, puis « Proposer ».")),
    ("🔢", _("Une offre dit un miaou. Le tableau dit combien de cartes.")),
    ("🤝", _("Touche une offre, autant de cartes d'un chat, puis « Échanger ».")),
    (art.purrfect_paw_src(), _("9 chats pareils ? « Purrfect! » : 2 pattes.")),
]

# ---------------------------------------------------------------- refusals
REFUSALS: dict[str, Promise] = {
    "card_locked": _("Cette carte est dans ton offre : retire d'abord ton offre."),
    # Also a card never held (a hand-made message): nothing here says "plus".
    "card_not_in_hand": _("Cette carte n'est pas dans ta main : regarde ta main, puis choisis encore."),
    "claim_blocked": _("Pas encore : change d'abord une carte avant de réessayer Purrfect!"),
    "game_over": _("La partie est terminée."),
    "no_open_offer": _("Tu n'as pas d'offre à retirer."),
    "not_same_cat": _("Choisis des cartes du même chat."),
    "offer_already_open": _("Tu as déjà une offre : retire-la d'abord."),
    "offer_closed": _("Cette offre s'est terminée avec la manche."),
    "offer_taken": _("Trop tard : quelqu'un a déjà pris cette offre."),
    "offer_withdrawn": _("Trop tard : cette offre a été retirée."),
    "own_offer": _("C'est ta propre offre : choisis l'offre de quelqu'un d'autre."),
    "wrong_count": _("Regarde le tableau des miaous : combien de cartes demande cette offre ?"),
    "no_cards": _("Touche d'abord des cartes de ta main."),
    # An end-of-game answer (``kind: answer``): Purrfect asks none.
    "no_question": _("Il n'y a pas de question à répondre : continue à jouer !"),
}


refusal_message = generic.refusal_wording(REFUSALS)


def explain_refusal(
    code: str,
    *,
    action: Mapping[str, Any],
    view: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]],
    seat_names: Sequence[str],
) -> str | None:
    """The refusals that say more from what the seat may know.

    ``wrong_count`` names the offer's meow (public) and asks the child to read
    the board, never saying the number; ``offer_taken`` names who traded, read
    from the public ``trade_done`` event. ``None``: the plain sentence."""
    offer_id = action.get("offer")
    if code == "wrong_count":
        meow = next((o.get("meow") for o in view.get("offers") or [] if o.get("id") == offer_id), None)
        if meow:
            return gettext(
                "Regarde le tableau des miaous : combien de cartes demande « %(meow)s » ?"
            ) % {"meow": meow}
    if code == "offer_taken":
        for event in reversed(history):
            if event.get("type") == "trade_done" and event.get("offer") == offer_id:
                giver, taker = [*list(event.get("seats") or []), None, None][:2]
                return gettext("Trop tard : %(taker)s a déjà échangé avec %(giver)s.") % {
                    "taker": _name(seat_names, taker),
                    "giver": _name(seat_names, giver),
                }
    return None


# ---------------------------------------------------------------- form → action
def _whole(raw: Any) -> int | None:
    number = whole_number(raw, max_digits=6)
    return number if number is not None and number >= 0 else None


def _cards(raw: Any) -> list[int]:
    """The tapped cards: a list (checkboxes), one value, or "3,5,7"."""
    if raw is None or raw == "":
        return []
    items: list[Any]
    if isinstance(raw, list):
        items = raw
    elif isinstance(raw, str):
        items = raw.split(",")
    else:
        items = [raw]
    if len(items) > POSES:
        raise IllegalAction("malformed", "Too many cards.")
    cards: list[int] = []
    for item in items:
        number = _whole(item)
        if number is None:
            raise IllegalAction("malformed", "Bad card.")
        if number not in cards:
            cards.append(number)
    return cards


def form_to_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The tablet's form → an engine action.

    ``move`` is ``offer``, ``accept``, ``withdraw`` or ``claim``. The trade form
    may leave it out: an offer chosen on the table means "accept", otherwise
    the tapped cards are offered. The engine judges the rest (same cat, count)."""
    move = data.get("move") or ""
    if move in ("withdraw", "claim"):
        return {"type": move}
    offer_raw = data.get("offer")
    offer = None if offer_raw in (None, "") else _whole(offer_raw)
    if offer_raw not in (None, "") and offer is None:
        raise IllegalAction("malformed", "Bad offer.")
    if move == "":
        move = "accept" if offer is not None else "offer"
    if move not in ("offer", "accept"):
        raise IllegalAction("malformed", "Unknown move.")
    cards = _cards(data.get("cards"))
    if not cards:
        raise IllegalAction("no_cards", "No card chosen.")
    if move == "offer":
        return {"type": "offer", "cards": cards}
    if offer is None:
        raise IllegalAction("malformed", "No offer.")
    return {"type": "accept", "offer": offer, "cards": cards}


# ---------------------------------------------------------------- helpers
def _name(seat_names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return gettext("Quelqu'un")


def cat_info(cat: int) -> dict[str, Any]:
    """What draws a cat: its name, initial, picture and colour class."""
    name = CAT_NAMES[cat] if 0 <= cat < len(CAT_NAMES) else "?"
    src = art.purrfect_cat_src(cat) if 0 <= cat < art.PURRFECT_CATS else art.purrfect_back_src()
    return {"cat": cat, "name": name, "initial": name[:1], "src": src}


def _meow_lang(view: Mapping[str, Any], meow: Any) -> str:
    for entry in view.get("meows") or []:
        if entry.get("meow") == meow:
            langs = entry.get("langs") or []
            return str(langs[0]) if langs else ""
    return ""


def player_extras(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Paws for each seat (drawn as paw prints next to the avatar)."""
    paws = list(view.get("paws") or [])
    return [{"paws": int(n or 0), "paw_range": range(int(n or 0))} for n in paws]


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
            "lang": _meow_lang(view, offer.get("meow")),
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
        own_offer["lang"] = _meow_lang(view, own_offer["meow"])
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


# ---------------------------------------------------------------- sentences
def explain(
    event: Mapping[str, Any], seat_names: Sequence[str], me: int | None
) -> dict[str, str] | None:
    """One line a child reads for an event (``None``: nothing worth a line).
    ``me`` turns "Léo" into "tu" for the seat's own events."""
    kind = event.get("type")
    seat = event.get("seat")
    you = me is not None and seat == me
    name = _name(seat_names, seat)
    if kind == "game_started":
        return {
            "kind": "round",
            "icon": "🐱",
            "text": ngettext(
                "La partie commence ! Le premier à %(n)s patte gagne.",
                "La partie commence ! Le premier à %(n)s pattes gagne.",
                int(event.get("paws_to_win") or 0),
            )
            % {"n": event.get("paws_to_win")},
        }
    if kind == "round_started":
        return {
            "kind": "round",
            "icon": "🃏",
            "text": gettext("Manche %(round)s : chacun reçoit 9 cartes.") % {"round": event.get("round")},
        }
    if kind == "offer_made":
        text = (
            gettext("Tu proposes des cartes : « %(meow)s ».")
            if you
            else gettext("%(name)s propose des cartes : « %(meow)s ».")
        ) % {"name": name, "meow": event.get("meow")}
        return {"kind": "info", "icon": "🙀", "text": text}
    if kind == "offer_withdrawn":
        text = gettext("Tu retires ton offre.") if you else gettext("%(name)s retire son offre.") % {"name": name}
        return {"kind": "info", "icon": "↩", "text": text}
    if kind == "trade_done":
        seats = list(event.get("seats") or [])
        count = int(event.get("count") or 0)
        if me is not None and me in seats:
            other = seats[1] if seats and seats[0] == me else (seats[0] if seats else None)
            text = ngettext(
                "Tu as échangé %(n)s carte avec %(name)s.",
                "Tu as échangé %(n)s cartes avec %(name)s.",
                count,
            ) % {"n": count, "name": _name(seat_names, other)}
        else:
            a, b = [*seats, None, None][:2]
            text = ngettext(
                "%(a)s et %(b)s ont échangé %(n)s carte.",
                "%(a)s et %(b)s ont échangé %(n)s cartes.",
                count,
            ) % {"a": _name(seat_names, a), "b": _name(seat_names, b), "n": count}
        return {"kind": "trade", "icon": "🤝", "text": text}
    if kind == "cards_received":
        count = len(event.get("cards") or [])
        text = names_place(
            ngettext(
                "Tu reçois %(n)s carte de %(name)s.", "Tu reçois %(n)s cartes de %(name)s.", count
            )
            % {"n": count, "name": name_mark(_name(seat_names, event.get("from")))}
        )
        return {"kind": "good", "icon": "🎁", "text": text}
    if kind == "claim_failed":
        text = (
            gettext("Purrfect? Pas encore : il faut 9 cartes du même chat.")
            if you
            else gettext("%(name)s a crié Purrfect! trop tôt.") % {"name": name}
        )
        return {"kind": "penalty", "icon": "🙈", "text": text}
    if kind == "claim_succeeded":
        cat = cat_info(int(event.get("cat") or 0))["name"]
        text = (
            gettext("Purrfect! Tu as 9 %(cat)s !")
            if you
            else gettext("Purrfect! %(name)s a 9 %(cat)s !")
        ) % {"name": name, "cat": cat}
        return {"kind": "over", "icon": "🏆", "text": text}
    if kind == "round_over":
        if event.get("stalled"):
            text = gettext("La manche %(round)s s'arrête : personne n'a réussi.") % {"round": event.get("round")}
        else:
            text = gettext("Fin de la manche %(round)s.") % {"round": event.get("round")}
        return {"kind": "round", "icon": "🏁", "text": text}
    if kind == "game_over":
        winners = ", ".join(_name(seat_names, s) for s in event.get("winners") or [])
        return {"kind": "over", "icon": "🏆", "text": gettext("Partie terminée ! Bravo %(names)s !") % {"names": winners}}
    return None


def describe_event(
    event: Mapping[str, Any],
    seat_names: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> str:
    """One sentence for the log, the monitor and the replay (no "tu")."""
    if event.get("type") == "hand_dealt":
        return gettext("Tu reçois tes 9 cartes.")
    line = explain(event, seat_names, None)
    return line["text"] if line else gettext("Un coup a été joué.")


def public_summary(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[tuple[str, str]]:
    """The monitor's line for a table: round, paws, open offers. Public only."""
    paws = view.get("paws") or []
    rows = [
        (gettext("Manche"), str(view.get("round"))),
        (
            gettext("Pattes"),
            counts_line([(_name(seat_names, seat), n) for seat, n in enumerate(paws)]),
        ),
        (gettext("Offres ouvertes"), str(len(view.get("offers") or []))),
    ]
    if view.get("over"):
        rows.append((gettext("État"), gettext("Partie terminée")))
    return rows


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
                "name": _name(seat_names, seat),
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
            "claimant": _name(seat_names, claimant) if claimant is not None else "",
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


def _ranking(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[dict[str, Any]]:
    paws = [int(n or 0) for n in view.get("paws") or []]
    winners = set(view.get("winners") or [])
    order = sorted(range(len(paws)), key=lambda s: (s not in winners, -paws[s], s))
    rows: list[dict[str, Any]] = []
    for position, seat in enumerate(order):
        same = rows and rows[-1]["paws"] == paws[seat] and (seat in winners) == rows[-1]["winner"]
        place = rows[-1]["place"] if same else position + 1
        rows.append(
            {
                "place": place,
                "seat": seat,
                "name": _name(seat_names, seat),
                "paws": paws[seat],
                "winner": seat in winners,
                "medal": {1: "🥇", 2: "🥈", 3: "🥉"}.get(place, ""),
            }
        )
    return rows


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
        "arrived_from": _name(seat_names, arrived["from"]) if arrived else "",
        "round_summary": _round_summary(history, seat_names, seat),
        "ranking": _ranking(view, seat_names) if view.get("over") else [],
        "how_to_play_open": seat is not None and not acted and not view.get("over"),
        "claim_mistaken": mistaken,
    }


# ---------------------------------------------------------------- the teacher's reports
# Purrfect's own columns in the pupil and class reports and their CSV (counted
# by classroom from its records; see cardgames.ui.ReportColumn for the keys).
REPORT_COLUMNS = (
    ReportColumn("tables", _("Parties"), _("parties")),
    ReportColumn("finished", _("Finies"), _("parties finies")),
    ReportColumn("trades", _("Échanges"), _("échanges")),
    ReportColumn("offers_withdrawn", _("Offres retirées"), _("offres retirées")),
    ReportColumn("mistaken_claims", _("« Purrfect! » trop tôt"), _("« Purrfect! » trop tôt")),
    ReportColumn("wrong_count_accepts", _("Miaous mal lus"), _("miaous mal lus")),
    ReportColumn("score", _("Pattes"), _("pattes (parties finies)")),
    ReportColumn("best_place", _("Meilleure place"), _("meilleure place")),
)


def report_places(view: Mapping[str, Any]) -> dict[int, int]:
    """Seat → place of a finished game, as the end screen ranks it (the
    winners first, equal paws sharing a place)."""
    return {row["seat"]: row["place"] for row in _ranking(view, ())}
