"""What a child reads in Purrfect: the refusals (some saying more from what
the seat may know), one line per event with "tu" for the seat's own moves,
and the monitor's line for a table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgames.names import counts_line, name_mark, names_place
from cardgames.ui import generic
from cardgames.ui.purrfect.cats import cat_info

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
                    "taker": generic.seat_name(seat_names, taker),
                    "giver": generic.seat_name(seat_names, giver),
                }
    return None


# ---------------------------------------------------------------- events
def _trade_line(event: Mapping[str, Any], seat_names: Sequence[str], me: int | None) -> dict[str, str]:
    """A trade, said to one of its two players ("Tu as échangé...") or about them."""
    seats = list(event.get("seats") or [])
    count = int(event.get("count") or 0)
    if me is not None and me in seats:
        other = seats[1] if seats and seats[0] == me else (seats[0] if seats else None)
        text = ngettext(
            "Tu as échangé %(n)s carte avec %(name)s.",
            "Tu as échangé %(n)s cartes avec %(name)s.",
            count,
        ) % {"n": count, "name": generic.seat_name(seat_names, other)}
    else:
        a, b = [*seats, None, None][:2]
        text = ngettext(
            "%(a)s et %(b)s ont échangé %(n)s carte.",
            "%(a)s et %(b)s ont échangé %(n)s cartes.",
            count,
        ) % {"a": generic.seat_name(seat_names, a), "b": generic.seat_name(seat_names, b), "n": count}
    return {"kind": "trade", "icon": "🤝", "text": text}


def explain(
    event: Mapping[str, Any], seat_names: Sequence[str], me: int | None
) -> dict[str, str] | None:
    """One line a child reads for an event (``None``: nothing worth a line).
    ``me`` turns "Léo" into "tu" for the seat's own events."""
    kind = event.get("type")
    seat = event.get("seat")
    you = me is not None and seat == me
    name = generic.seat_name(seat_names, seat)
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
        return _trade_line(event, seat_names, me)
    if kind == "cards_received":
        count = len(event.get("cards") or [])
        text = names_place(
            ngettext(
                "Tu reçois %(n)s carte de %(name)s.", "Tu reçois %(n)s cartes de %(name)s.", count
            )
            % {"n": count, "name": name_mark(generic.seat_name(seat_names, event.get("from")))}
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
        winners = ", ".join(generic.seat_name(seat_names, s) for s in event.get("winners") or [])
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
            counts_line([(generic.seat_name(seat_names, seat), n) for seat, n in enumerate(paws)]),
        ),
        (gettext("Offres ouvertes"), str(len(view.get("offers") or []))),
    ]
    if view.get("over"):
        rows.append((gettext("État"), gettext("Partie terminée")))
    return rows
