"""What a child reads in Pinocchio: the refusals (some naming the
announcement to follow), one line per event with the verdict of a doubt, and
the monitor's line. Sentences are gettext; the garment words inside them are
in the table's ``words_language`` (:mod:`.words`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgames.names import counts_line
from cardgames.ui import generic
from cardgames.ui.pinocchio.words import LANGUAGES, phrase, table_language

# ---------------------------------------------------------------- refusals
REFUSALS: dict[str, Promise] = {
    "not_your_turn": _("Ce n'est pas ton tour : attends ton tour."),
    "cannot_doubt": _("Pas de doute possible maintenant : annonce ta carte."),
    "respond_first": _("D'abord, dis si tu crois l'annonce d'avant ou si tu doutes."),
    "must_follow": _("Garde le vêtement ou la couleur de l'annonce d'avant."),
    "game_over": _("La partie est terminée."),
    # An end-of-game answer (``kind: answer``): Pinocchio asks none.
    "no_question": _("Il n'y a pas de question à répondre : continue à jouer !"),
}

# The sentence for a code without context: ours first, then the runtime's
# ("malformed", "stale"...).
refusal_message = generic.refusal_wording(REFUSALS)


def must_follow_text(lang: str, last: Mapping[str, Any]) -> str:
    """Why an announcement was refused or a choice is greyed: the one to
    follow, in the table's words (the refusal and the grid say it alike)."""
    return gettext(
        "Tu dois garder le vêtement ou la couleur de l'annonce d'avant : « %(phrase)s »."
    ) % {"phrase": phrase(lang, str(last["garment"]), str(last["colour"]))}


def explain_refusal(
    code: str,
    *,
    action: Mapping[str, Any],
    view: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]],
    seat_names: Sequence[str],
) -> str | None:
    """The refusals that say more from the (public) announcement to follow.

    ``must_follow`` names the announcement to follow, in the table's words;
    ``cannot_doubt`` says why this one may not be doubted. ``None``: the plain one."""
    last = view.get("last_announcement")
    if code == "must_follow" and isinstance(last, Mapping):
        return must_follow_text(table_language(view), last)
    if code == "cannot_doubt" and isinstance(last, Mapping) and not last.get("doubtable", True):
        return gettext("Annonce libre après un doute : on ne peut pas douter.")
    return None


# ---------------------------------------------------------------- events
def verdict(event: Mapping[str, Any], lang: str, seat_names: Sequence[str], me: int | None) -> str:
    """ "C'était bien un bonnet rouge : Léo prend un nez." / "C'était une chemise
    jaune : Inès a menti et prend un nez." (with "tu" for the seat's own part)."""
    card = event.get("card") or {}
    words = phrase(lang, str(card.get("garment")), str(card.get("colour")))
    doubter, target = event.get("seat"), event.get("target")
    if event.get("truthful"):
        if me is not None and doubter == me:
            return gettext("C'était bien %(card)s : tu prends un nez.") % {"card": words}
        return gettext("C'était bien %(card)s : %(name)s prend un nez.") % {
            "card": words,
            "name": generic.seat_name(seat_names, doubter),
        }
    if me is not None and target == me:
        return gettext("C'était %(card)s : tu as menti et tu prends un nez.") % {"card": words}
    return gettext("C'était %(card)s : %(name)s a menti et prend un nez.") % {
        "card": words,
        "name": generic.seat_name(seat_names, target),
    }


def explain(
    event: Mapping[str, Any], seat_names: Sequence[str], me: int | None, lang: str = "fr"
) -> dict[str, str] | None:
    """One line a child reads for an event (``None``: nothing worth a line).
    ``me`` turns "Léo" into "tu" for the seat's own events; ``lang`` is the
    table's word language."""
    kind = event.get("type")
    seat = event.get("seat")
    you = me is not None and seat == me
    name = generic.seat_name(seat_names, seat)
    if kind == "card_laid":
        words = phrase(lang, str(event.get("garment")), str(event.get("colour")))
        if not event.get("doubtable", True):
            text = (
                gettext("Tu annonces librement : « %(card)s ». Personne ne peut en douter.")
                if you
                else gettext(
                    "%(name)s annonce librement : « %(card)s ». Personne ne peut en douter."
                )
            )
        else:
            text = (
                gettext("Tu annonces : « %(card)s ».")
                if you
                else gettext("%(name)s annonce : « %(card)s ».")
            )
        return {"kind": "info", "icon": "🗣", "text": text % {"name": name, "card": words}}
    if kind == "believed":
        target = event.get("target")
        if you:
            text = gettext("Tu crois %(name)s.") % {"name": generic.seat_name(seat_names, target)}
        elif me is not None and target == me:
            text = gettext("%(name)s te croit.") % {"name": name}
        else:
            text = gettext("%(name)s croit %(target)s.") % {
                "name": name,
                "target": generic.seat_name(seat_names, target),
            }
        return {"kind": "info", "icon": "👍", "text": text}
    if kind == "doubted":
        opener = gettext("Tu doutes !") if you else gettext("%(name)s doute !") % {"name": name}
        return {
            "kind": "round",
            "icon": "🤔",
            "text": f"{opener} {verdict(event, lang, seat_names, me)}",
        }
    if kind == "nose_taken":
        count = int(event.get("noses") or 0)
        if you:
            text = ngettext(
                "Tu prends un nez : tu en as %(n)s.", "Tu prends un nez : tu en as %(n)s.", count
            ) % {"n": count}
        else:
            text = ngettext(
                "%(name)s prend un nez : %(n)s en tout.",
                "%(name)s prend un nez : %(n)s en tout.",
                count,
            ) % {"name": name, "n": count}
        return {"kind": "penalty", "icon": "👃", "text": text}
    if kind == "card_seen":
        # Private: only ever in the history of the seat that drew the card.
        card = event.get("card") or {}
        if not you:
            return None
        return {
            "kind": "info",
            "icon": "🃏",
            "text": gettext("Tu prends ta carte : « %(card)s ».")
            % {"card": phrase(lang, str(card.get("garment")), str(card.get("colour")))},
        }
    if kind == "game_over":
        winners = ", ".join(generic.seat_name(seat_names, s) for s in event.get("winners") or [])
        return {
            "kind": "over",
            "icon": "🏆",
            "text": gettext("Partie terminée ! Bravo %(names)s !") % {"names": winners},
        }
    return None


def describe_event(
    event: Mapping[str, Any],
    seat_names: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> str:
    """One sentence for the log, the monitor and the replay (no "tu"). The
    garment words are in the table's ``words_language`` (its ``options``):
    a French class practising German reads German words on the monitor too."""
    words_language = (options or {}).get("words_language")
    lang = words_language if words_language in LANGUAGES else "fr"
    if event.get("type") == "card_seen":
        return gettext("Une carte est prise.")
    line = explain(event, seat_names, None, lang)
    return line["text"] if line else gettext("Un coup a été joué.")


def public_summary(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[tuple[str, str]]:
    """The monitor's line for a table: the last announcement, whose turn, noses.
    Public only: never a card's face unless a doubt revealed it."""
    lang = table_language(view)
    last = view.get("last_announcement")
    current = view.get("current_seat")
    noses = view.get("noses") or []
    rows = [
        (
            gettext("Dernière annonce"),
            gettext("%(name)s : « %(card)s »")
            % {
                "name": generic.seat_name(seat_names, last.get("seat")),
                "card": phrase(lang, str(last.get("garment")), str(last.get("colour"))),
            }
            if isinstance(last, Mapping)
            else gettext("aucune"),
        ),
        (
            gettext("Au tour de"),
            generic.seat_name(seat_names, current)
            if current is not None
            else gettext("personne (partie finie)"),
        ),
        (
            gettext("Nez"),
            counts_line([(generic.seat_name(seat_names, seat), n) for seat, n in enumerate(noses)]),
        ),
        (gettext("Cartes posées"), str(view.get("rangement_count") or 0)),
    ]
    if view.get("over"):
        rows.append((gettext("État"), gettext("Partie terminée")))
    return rows
