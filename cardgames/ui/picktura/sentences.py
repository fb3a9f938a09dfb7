"""What a child reads in Picktura: the refusals, one line per event (with
"tu" for the seat's own moves), and the monitor's line for a table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgames.engines.picktura import VISIBLE
from cardgames.names import counts_line, with_names
from cardgames.ui import generic
from cardgames.ui.picktura.cartels import cartel
from cardgames.ui.picktura.end import end_reason
from cardgames.ui.picktura.forms import LAYS

# ---------------------------------------------------------------- refusals
REFUSALS: dict[str, Promise] = {
    "blank_not_allowed": _("La toile blanche ne va pas ici."),
    "cannot_collect": _("Pour ramasser, il faut une carte dans chaque pile."),
    "card_not_in_hand": _("Cette carte n'est pas dans ta main."),
    "collect_first": _("Ramasse d'abord une carte, puis défausse."),
    "complete_three_not_allowed": _(
        "Une exposition de 3 cartes se complète avec une toile blanche."
    ),
    "discard_required": _("Défausse une carte pour finir de ramasser."),
    "exhibit_complete": _("Cette exposition est déjà complète."),
    "game_over": _("La partie est terminée."),
    "needs_three_cards": _("Une toile blanche complète seulement une exposition de 3 cartes."),
    "no_blank_canvases": _("Cette partie se joue sans toile blanche."),
    "no_blank_in_exhibit": _("Cette exposition n'a pas de toile blanche."),
    "not_a_blank": _("Cette carte n'est pas une toile blanche."),
    "not_same_artwork": _("Les cartes doivent montrer la même œuvre."),
    "not_your_turn": _("Ce n'est pas ton tour : attends ton tour."),
    "wrong_card_count": _("Ce n'est pas le bon nombre de cartes."),
    "wrong_draw_count": _("Choisis une pile pour chaque carte à piocher."),
    "no_cards": _("Touche d'abord des cartes de ta main."),
    "discard_one": _("Touche une seule carte de ta main, puis « Défausser »."),
    "answer_invalid": _("Tape ton nombre de points avec les touches, puis OK."),
    "already_answered": _("Tu as déjà donné ta réponse."),
    "no_question": _("Il n'y a pas de question à répondre maintenant."),
}

refusal_message = generic.refusal_wording(REFUSALS)


# ---------------------------------------------------------------- events
def _card_words(card: Mapping[str, Any] | None) -> str:
    if not card:
        return gettext("une carte")
    if card.get("blank"):
        return gettext("une toile blanche")
    return gettext("une carte du tableau n° %(n)s") % {"n": card.get("artwork")}


def _draw_line(event: Mapping[str, Any], name: str, you: bool) -> dict[str, str]:
    """A card taken from a pile: the visible pile's card is named, the hidden
    pile's is not (only its drawer learns it, by ``hidden_card``)."""
    if event.get("from") == VISIBLE:
        what = _card_words(event.get("card"))
        text = (
            gettext("Tu prends %(what)s dans la pile visible.")
            if you
            else gettext("%(name)s prend %(what)s dans la pile visible.")
        ) % {"name": name, "what": what}
    else:
        text = (
            gettext("Tu pioches dans la pile cachée.")
            if you
            else gettext("%(name)s pioche dans la pile cachée.")
        ) % {"name": name}
    return {"kind": "info", "icon": "🂠", "text": text}


def _lay_line(kind: str, event: Mapping[str, Any], name: str, you: bool) -> dict[str, str]:
    """Cards laid on an exhibit (a new one, completed, a blank canvas put or
    replaced), with the points it now scores."""
    work = event.get("artwork")
    title = str(cartel(int(work))["title"]) if isinstance(work, int) else ""
    points = event.get("points")
    if kind == "exhibit":
        size = len(event.get("cards") or [])
        text = (
            ngettext("Tu exposes %(n)s carte de « %(title)s ».", "Tu exposes %(n)s cartes de « %(title)s ».", size)
            if you
            else ngettext(
                "%(name)s expose %(n)s carte de « %(title)s ».",
                "%(name)s expose %(n)s cartes de « %(title)s ».",
                size,
            )
        ) % {"name": name, "n": size, "title": title}
    elif kind == "complete":
        text = (
            gettext("Tu complètes « %(title)s » : tableau complet !")
            if you
            else gettext("%(name)s complète « %(title)s » : tableau complet !")
        ) % {"name": name, "title": title}
    elif kind == "blank":
        text = (
            gettext("Tu poses une toile blanche sur « %(title)s ».")
            if you
            else gettext("%(name)s pose une toile blanche sur « %(title)s ».")
        ) % {"name": name, "title": title}
    else:
        text = (
            gettext("Tu remplaces la toile blanche de « %(title)s » par la vraie carte.")
            if you
            else gettext("%(name)s remplace la toile blanche de « %(title)s » par la vraie carte.")
        ) % {"name": name, "title": title}
    text += " " + ngettext("(%(n)s point)", "(%(n)s points)", int(points or 0)) % {"n": points}
    return {"kind": "good" if event.get("picktura") else "info", "icon": "🖼", "text": text}


def explain(event: Mapping[str, Any], seat_names: Sequence[str], me: int | None) -> dict[str, str] | None:
    """One line a child reads for an event (``None``: nothing worth a line).
    ``me`` turns a name into "tu" for the seat's own events."""
    kind = event.get("type")
    seat = event.get("seat")
    you = me is not None and seat == me
    name = generic.seat_name(seat_names, seat)
    if kind == "game_start":
        return {"kind": "round", "icon": "🖼", "text": gettext("La partie commence : chacun reçoit 5 cartes.")}
    if kind == "deal":
        return {"kind": "info", "icon": "🃏", "text": gettext("Tu reçois tes 5 cartes.")}
    if kind == "turn":
        text = gettext("C'est ton tour !") if you else with_names(gettext("Au tour de %(name)s."), name=name)
        return {"kind": "turn", "icon": "⭐" if you else "⏳", "text": text}
    if kind == "draw":
        return _draw_line(event, name, you)
    if kind == "hidden_card":
        return {
            "kind": "good",
            "icon": "🤫",
            "text": gettext("Pile cachée : tu as pioché %(what)s (toi seul la vois).")
            % {"what": _card_words(event.get("card"))},
        }
    if kind == "discard":
        what = _card_words(event.get("card"))
        text = (
            gettext("Tu défausses %(what)s.") if you else gettext("%(name)s défausse %(what)s.")
        ) % {"name": name, "what": what}
        return {"kind": "info", "icon": "🗑", "text": text}
    if kind in LAYS:
        return _lay_line(str(kind), event, name, you)
    if kind == "flip":
        if event.get("reason") == "setup":
            return None
        return {
            "kind": "info",
            "icon": "🔃",
            "text": gettext("On retourne la carte du dessus de la pile cachée."),
        }
    if kind == "rebuild":
        return {
            "kind": "round",
            "icon": "♻",
            "text": gettext("La pile cachée est vide : on retourne la pile visible (%(n)s sur %(limit)s).")
            % {"n": event.get("rebuilds"), "limit": event.get("limit")},
        }
    if kind == "draw_skipped":
        return {"kind": "info", "icon": "∅", "text": gettext("Les piles sont vides : pas de carte à piocher.")}
    if kind == "turn_skipped":
        text = (
            gettext("Tu ne peux rien faire : ton tour passe.")
            if you
            else gettext("%(name)s ne peut rien faire : son tour passe.") % {"name": name}
        )
        return {"kind": "info", "icon": "⏭", "text": text}
    if kind == "game_over":
        return {"kind": "over", "icon": "🏁", "text": end_reason(event.get("reason"))}
    return None


def describe_event(
    event: Mapping[str, Any],
    seat_names: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> str:
    """One sentence for the log, the monitor and the replay (no "tu")."""
    line = explain(event, seat_names, None)
    return line["text"] if line else gettext("Un coup a été joué.")


def public_summary(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[tuple[str, str]]:
    """The monitor's line for a table: whose turn, scores so far, rebuilds. Public only."""
    rows: list[tuple[str, str]] = []
    current = view.get("current_seat")
    if isinstance(current, int):
        rows.append((gettext("Au tour de"), generic.seat_name(seat_names, current)))
    scores = view.get("exhibit_scores") or []
    rows.append(
        (
            gettext("Points exposés"),
            counts_line([(generic.seat_name(seat_names, s), n) for s, n in enumerate(scores)]),
        )
    )
    rows.append(
        (gettext("Pile refaite"), f"{view.get('rebuilds', 0)} / {view.get('rebuild_limit', 2)}")
    )
    if view.get("over"):
        rows.append((gettext("État"), end_reason(view.get("end_reason"))))
    return rows
