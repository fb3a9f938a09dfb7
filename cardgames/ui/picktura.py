"""Picktura: the game's UI (rules: ``docs/rules/picktura.md``).

Everything a page needs to know about Picktura lives here: the teacher's words
for the options, the tablet's form → action, the sentences a child reads
(refusals and events), the seat, public and monitor contexts, the scoring
table, and the question a pupil answers after the game ("Combien de points
as-tu ?"). Templates: ``templates/cardgames/picktura/``; the browser side
(choosing cards, the draw choices pile by pile, the cartels, the keypad) is
``static/js/picktura.js``.

A turn on the tablet: tap a pile to **take** its top card (then tap a card
and **discard** it, the second half of the same turn), or lay cards (tap 2-4
cards of one work and **Exposer**, or a button under one of your exhibits:
**Compléter**, **Toile blanche**, **Remplacer la toile**), then tap a pile for
each card to draw, as many as the engine asks. The engine takes the whole lay
with its ``draw_from`` list in one action, so the pile-by-pile choice is made
on the tablet and sent at once.

Secrecy: the seat's view holds its own hand only; the visible pile drawn here
(down to five cards) is rebuilt from the public log with the engine's own
``PileMemory``, so it shows only cards that everyone saw face up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgames.engines.base import IllegalAction
from cardgames.engines.picktura import HIDDEN, PILES, VISIBLE, PileMemory
from cardgames.names import counts_line, with_names
from cardgames.parsing import whole_number
from cardgames.ui import ReportColumn, art, generic
from cardgames.ui.picktura_cartels import cartel, cartels

TWO_STEP = False
SEAT_TEMPLATE = "cardgames/picktura/seat.html"
PUBLIC_TEMPLATE = "cardgames/picktura/public.html"
SCRIPT = "js/picktura.js"

TITLE = _("Picktura")
PITCH = _("Réunis les quatre quarts de tableaux célèbres et expose-les. À la fin, compte tes points.")
ICON = art.picktura_work_src(1)

# ---------------------------------------------------------------- options
OPTION_LABELS: dict[str, dict[str, Promise]] = {
    "blank_canvases": {
        "label": _("Toiles blanches"),
        "help": _("Une toile blanche par joueur : elle remplace n'importe quelle carte."),
    },
    "complete_three_with_one": {
        "label": _("Compléter 3 cartes avec 1 carte"),
        "help": _("Une exposition de 3 cartes peut aussi se compléter avec la carte qui manque."),
    },
    "score_sums": {
        "label": _("Les élèves comptent leurs points"),
        "help": _("À la fin, chaque élève additionne ses points avant de voir le score."),
    },
}
CHOICE_LABELS: dict[str, dict[str, Promise]] = {}

# ---------------------------------------------------------------- how to play
HOW_TO_PLAY: list[tuple[str, Promise]] = [
    (art.picktura_work_src(1), _("Le but : réunir les 4 quarts d'un tableau.")),
    (art.picktura_back_src(), _("Prends une carte d'une pile, puis défausse une carte.")),
    ("🖼", _("Ou pose 2, 3 ou 4 cartes d'un même tableau : « Exposer ».")),
    (art.picktura_blank_src(), _("La toile blanche complète une exposition de 3 cartes.")),
    ("🧮", _("À la fin, additionne les points de tes expositions.")),
]

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

LAYS = ("exhibit", "complete", "blank", "replace_blank")
MOVES = ("collect", "discard", *LAYS)
MAX_CARDS = 4
VISIBLE_STACK = 5  # a lay draws at most 4; one more for the top after it


# ---------------------------------------------------------------- form → action
def _number(raw: Any, what: str) -> int:
    number = whole_number(raw, max_digits=4)
    if number is None:
        raise IllegalAction("malformed", f"Bad {what}.")
    return number


def _items(raw: Any) -> list[Any]:
    """A repeated form field: a list, one value, or "a,b,c"."""
    if raw is None or raw == "":
        return []
    if isinstance(raw, list):
        return raw
    if isinstance(raw, str):
        return [part for part in raw.split(",") if part.strip()]
    return [raw]


def _cards(raw: Any) -> list[int]:
    items = _items(raw)
    if len(items) > MAX_CARDS:
        raise IllegalAction("malformed", "Too many cards.")
    cards: list[int] = []
    for item in items:
        card = _number(item, "card")
        if card not in cards:
            cards.append(card)
    return cards


def _draws(raw: Any) -> list[str]:
    items = _items(raw)
    if len(items) > MAX_CARDS + 1:
        raise IllegalAction("malformed", "Too many draws.")
    draws = [item.strip() if isinstance(item, str) else item for item in items]
    if any(draw not in PILES for draw in draws):
        raise IllegalAction("malformed", "A draw names a pile.")
    return draws


def form_to_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The tablet's form → an engine action. ``move`` names the action; the
    engine judges everything else (whose turn, which cards, how many draws)."""
    move = data.get("move")
    if move not in MOVES:
        raise IllegalAction("malformed", "Unknown move.")
    if move == "collect":
        pile = data.get("from")
        if pile not in PILES:
            raise IllegalAction("malformed", "Collect from a pile.")
        return {"type": "collect", "from": pile}
    if move == "discard":
        cards = _cards(data.get("card"))
        if len(cards) != 1:
            # Two cards named (a hand-made message): "tap cards first" was false.
            raise IllegalAction("discard_one" if cards else "no_cards", "Discard one card.")
        return {"type": "discard", "card": cards[0]}
    action: dict[str, Any] = {"type": move}
    if move != "exhibit":
        action["exhibit"] = _number(data.get("exhibit"), "exhibit")
    if move in ("exhibit", "complete"):
        cards = _cards(data.get("cards"))
        if not cards:
            raise IllegalAction("no_cards", "No card chosen.")
        action["cards"] = cards
    else:
        cards = _cards(data.get("card"))
        if len(cards) != 1:
            raise IllegalAction("no_cards", "One card.")
        action["card"] = cards[0]
    action["draw_from"] = _draws(data.get("draw_from"))
    return action


# ---------------------------------------------------------------- cards
def card_info(card: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What draws one card: the work's drawing clipped to its quarter (or the
    blank canvas), its number for the corner and its cartel's title."""
    if card is None:
        return None
    if card.get("blank"):
        return {
            "id": card["id"],
            "blank": True,
            "work": None,
            "quarter": None,
            "src": art.picktura_blank_src(),
            "title": gettext("Toile blanche"),
        }
    work = int(card["artwork"])
    quarter = int(card["quarter"])
    return {
        "id": card["id"],
        "blank": False,
        "work": work,
        "quarter": quarter,
        "src": art.picktura_work_src(work),
        "viewbox": art.picktura_quarter_viewbox(quarter),
        "title": str(cartel(work)["title"]),
    }


def exhibit_info(exhibit: Mapping[str, Any], index: int) -> dict[str, Any]:
    """An exhibit assembled: four slots in reading order, each a quarter of
    the work, a blank canvas standing in for a missing quarter, or empty."""
    work = int(exhibit["artwork"])
    cards = list(exhibit.get("cards") or [])
    by_quarter = {c["quarter"]: c for c in cards if not c.get("blank")}
    blanks = [c for c in cards if c.get("blank")]
    slots: list[dict[str, Any]] = []
    for quarter in art.PICKTURA_QUARTERS:
        if quarter in by_quarter:
            slots.append({"kind": "real", "quarter": quarter, "viewbox": art.picktura_quarter_viewbox(quarter)})
        elif blanks:
            blanks.pop()
            slots.append({"kind": "blank", "quarter": quarter})
        else:
            slots.append({"kind": "empty", "quarter": quarter})
    size = int(exhibit.get("size") or len(cards))
    return {
        "index": index,
        "work": work,
        "src": art.picktura_work_src(work),
        "title": str(cartel(work)["title"]),
        "slots": slots,
        "size": size,
        "points": int(exhibit.get("points") or 0),
        "complete": size == 4,
        "has_blank": bool(exhibit.get("has_blank")),
        "actions": [],
    }


def _name(seat_names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return gettext("Quelqu'un")


def scoring_rows() -> list[dict[str, Any]]:
    """The scoring table, in words (the engine's ``SCORING``)."""
    return [
        {"what": gettext("Exposition de 2 cartes"), "cards": 2, "points": 2},
        {"what": gettext("Exposition de 3 cartes"), "cards": 3, "points": 3},
        {"what": gettext("Exposition complète (4 cartes)"), "cards": 4, "points": 6},
        {"what": gettext("Toile blanche gardée en main"), "cards": 0, "points": 1},
        {"what": gettext("Autre carte en main"), "cards": 0, "points": 0},
    ]


# ---------------------------------------------------------------- the end
def end_question(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The sum a pupil adds up after the game, or ``None`` when the table asks
    none (the game goes on, the option is off, or this is no player's view).

    ``addends``: each exhibit's points, then 1 per blank canvas kept in hand,
    from the seat's own view; ``total``: the engine's score for the seat."""
    seat = view.get("seat")
    if not view.get("over") or not isinstance(seat, int) or view.get("hand") is None:
        return None
    if not (view.get("options") or {}).get("score_sums", True):
        return None
    exhibits = (view.get("exhibits") or [])[seat]
    blanks = sum(1 for card in view.get("hand") or [] if card.get("blank"))
    addends = [int(ex["points"]) for ex in exhibits] + [1] * blanks
    total = int(view.get("my_score") or 0)
    return {"addends": addends, "total": total, "blanks_in_hand": blanks}


def written_sum(addends: Sequence[int], total: int) -> str:
    """"6 + 3 + 2 = 11"; with nothing to add, "0"."""
    if not addends:
        return str(total)
    if len(addends) == 1:
        return f"{addends[0]} = {total}" if addends[0] != total else str(total)
    return " + ".join(str(n) for n in addends) + f" = {total}"


def _end_reason(reason: Any) -> str:
    if reason == "rebuilds":
        return gettext(
            "La pile cachée a été refaite deux fois : la partie s'arrête à la fin du tour."
        )
    if reason == "no_action":
        return gettext("Plus personne ne peut jouer : la partie est finie.")
    return gettext("La partie est finie.")


def _ranking(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[dict[str, Any]]:
    result = view.get("result") or {}
    scores = list(result.get("scores") or [])
    rows = []
    for place, seat in enumerate(result.get("ranking") or [], start=1):
        rows.append(
            {
                "place": place,
                "seat": seat,
                "name": _name(seat_names, seat),
                "score": scores[seat] if seat < len(scores) else 0,
                "medal": {1: "🥇", 2: "🥈", 3: "🥉"}.get(place, ""),
                "is_me": seat == view.get("seat"),
            }
        )
    return rows


# ---------------------------------------------------------------- the seat
def _lay_forms(legal: Sequence[Mapping[str, Any]]) -> dict[tuple[str, int | None], dict[str, Any]]:
    """One form per laying action on an exhibit (the cards are fixed by the
    rules: the missing quarters), with the number of cards it then draws."""
    forms: dict[tuple[str, int | None], dict[str, Any]] = {}
    for action in legal:
        kind = action.get("type")
        if kind not in ("complete", "blank", "replace_blank"):
            continue
        key = (str(kind), action.get("exhibit"))
        if key in forms:
            continue
        cards = list(action.get("cards") or [action.get("card")])
        forms[key] = {
            "move": kind,
            "exhibit": action.get("exhibit"),
            "cards": ",".join(str(c) for c in cards),
            "field": "cards" if kind == "complete" else "card",
            "draws": len(action.get("draw_from") or []),
        }
    return forms


LAY_LABELS = {
    "complete": ("🧩", _("Compléter")),
    "blank": ("⬜", _("Toile blanche")),
    "replace_blank": ("🔄", _("Remplacer la toile")),
}


def seat_context(
    *,
    view: Mapping[str, Any],
    legal: list[dict[str, Any]],
    choice: Mapping[str, Any] | None,
    seed: int,
    version: int,
) -> dict[str, Any]:
    """The hand, the piles, every player's exhibits and what the seat may do
    now; at the end, the sum to add up or its answer, then the ranking."""
    me = view.get("seat")
    kinds = {a.get("type") for a in legal}
    discarding = "discard" in kinds
    hand = [card_info(c) for c in view.get("hand") or []]
    just_taken = view.get("just_taken")
    taken_id = just_taken.get("id") if isinstance(just_taken, Mapping) else None
    exhibit_draws: dict[int, int] = {}
    exhibit_works: set[int] = set()
    for action in legal:
        if action.get("type") == "exhibit":
            cards = action.get("cards") or []
            exhibit_draws.setdefault(len(cards), len(action.get("draw_from") or []))
            if cards:
                exhibit_works.add(int(cards[0]) // 4 + 1)
    lay_forms = _lay_forms(legal)
    players_exhibits: list[list[dict[str, Any]]] = []
    for seat, row in enumerate(view.get("exhibits") or []):
        infos = [exhibit_info(ex, index) for index, ex in enumerate(row)]
        if seat == me:
            for info in infos:
                for kind in ("complete", "blank", "replace_blank"):
                    form = lay_forms.get((kind, info["index"]))
                    if form is not None:
                        icon, label = LAY_LABELS[kind]
                        info["actions"].append({**form, "icon": icon, "label": str(label)})
        players_exhibits.append(infos)
    hand_counts = list(view.get("hand_counts") or [])
    scores = list(view.get("exhibit_scores") or [])
    extras = [
        {
            "exhibits": players_exhibits[s] if s < len(players_exhibits) else [],
            "hand_count": hand_counts[s] if s < len(hand_counts) else 0,
            "score": scores[s] if s < len(scores) else 0,
        }
        for s in range(int(view.get("players") or 0))
    ]
    for card in hand:
        if card is not None:
            card["new"] = card["id"] == taken_id
            card["exhibitable"] = card["work"] in exhibit_works
    over = bool(view.get("over"))
    question = end_question(view)
    answer = None
    if isinstance(choice, Mapping) and isinstance(choice.get("end_answer"), Mapping):
        answer = dict(choice["end_answer"])
    sum_result = None
    if question is not None and answer is not None:
        sum_result = {
            "answer": answer.get("answer"),
            "correct": bool(answer.get("correct")),
            "written": written_sum(question["addends"], question["total"]),
            "total": question["total"],
        }
    asking = question is not None and answer is None
    return {
        # The seat's forms take the move's nonce from the state line, as they take
        # the version (seat.html): their parts then change only with the game.
        "state_nonce": isinstance(me, int),
        "hand": [c for c in hand if c is not None],
        "visible_top": card_info(view.get("visible_top")),
        "visible_count": view.get("visible_count", 0),
        "hidden_count": view.get("hidden_count", 0),
        "back_src": art.picktura_back_src(),
        "blank_src": art.picktura_blank_src(),
        "can_collect": "collect" in kinds,
        "discarding": discarding,
        "just_taken": card_info(just_taken) if isinstance(just_taken, Mapping) else None,
        "can_exhibit": "exhibit" in kinds,
        "exhibit_draws": exhibit_draws,
        "exhibit_draws_data": ",".join(f"{k}:{n}" for k, n in sorted(exhibit_draws.items())),
        "can_lay": bool(kinds & set(LAYS)),
        "my_exhibits": players_exhibits[me] if isinstance(me, int) and me < len(players_exhibits) else [],
        "player_extras": extras,
        "scoring": scoring_rows(),
        "rebuilds": view.get("rebuilds", 0),
        "rebuild_limit": view.get("rebuild_limit", 2),
        "my_score": view.get("my_score"),
        "end_reason": _end_reason(view.get("end_reason")) if over else "",
        "sum_question": question if asking else None,
        "blanks_in_hand_range": range(question["blanks_in_hand"]) if question and asking else range(0),
        "sum_result": sum_result,
        "show_ranking": over and not asking,
        # Each pupil adds up their own score: until they have answered (the
        # seats in ``scores_shown``, from ``rendering``), no screen shows it.
        "sums_asked": over and bool((view.get("options") or {}).get("score_sums", True)),
        "keypad": [7, 8, 9, 4, 5, 6, 1, 2, 3],
        "cartels": [{**c, "src": art.picktura_work_src(c["number"])} for c in cartels()],
    }


# ---------------------------------------------------------------- sentences
def _card_words(card: Mapping[str, Any] | None) -> str:
    if not card:
        return gettext("une carte")
    if card.get("blank"):
        return gettext("une toile blanche")
    return gettext("une carte du tableau n° %(n)s") % {"n": card.get("artwork")}


def explain(event: Mapping[str, Any], seat_names: Sequence[str], me: int | None) -> dict[str, str] | None:
    """One line a child reads for an event (``None``: nothing worth a line).
    ``me`` turns a name into "tu" for the seat's own events."""
    kind = event.get("type")
    seat = event.get("seat")
    you = me is not None and seat == me
    name = _name(seat_names, seat)
    if kind == "game_start":
        return {"kind": "round", "icon": "🖼", "text": gettext("La partie commence : chacun reçoit 5 cartes.")}
    if kind == "deal":
        return {"kind": "info", "icon": "🃏", "text": gettext("Tu reçois tes 5 cartes.")}
    if kind == "turn":
        text = gettext("C'est ton tour !") if you else with_names(gettext("Au tour de %(name)s."), name=name)
        return {"kind": "turn", "icon": "⭐" if you else "⏳", "text": text}
    if kind == "draw":
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
    if kind in ("exhibit", "complete", "blank", "replace_blank"):
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
        return {"kind": "over", "icon": "🏁", "text": _end_reason(event.get("reason"))}
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
        rows.append((gettext("Au tour de"), _name(seat_names, current)))
    scores = view.get("exhibit_scores") or []
    rows.append(
        (gettext("Points exposés"), counts_line([(_name(seat_names, s), n) for s, n in enumerate(scores)]))
    )
    rows.append(
        (gettext("Pile refaite"), f"{view.get('rebuilds', 0)} / {view.get('rebuild_limit', 2)}")
    )
    if view.get("over"):
        rows.append((gettext("État"), _end_reason(view.get("end_reason"))))
    return rows


# ---------------------------------------------------------------- what happened


def _visible_stack(history: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> list[int]:
    """The visible pile from its top down (at most ``VISIBLE_STACK`` cards), as
    every player saw it built; only the top when the log does not tell."""
    memory = PileMemory()
    for event in history:
        memory.update(dict(event))
    top = view.get("visible_top")
    if memory.players and memory.matches(view):
        return list(reversed(memory.visible))[:VISIBLE_STACK]
    return [top["id"]] if isinstance(top, Mapping) else []


def _new_cards(history: Sequence[Mapping[str, Any]], me: int | None) -> set[int]:
    """The cards this seat drew in its latest turn (shown as "nouvelle")."""
    if me is None:
        return set()
    start = 0
    for index in range(len(history) - 1, -1, -1):
        if history[index].get("type") == "turn" and history[index].get("seat") == me:
            start = index
            break
    new: set[int] = set()
    for event in history[start:]:
        if event.get("seat") != me:
            continue
        kind = event.get("type")
        if kind == "hidden_card" or (kind == "draw" and event.get("from") == VISIBLE):
            card = event.get("card")
            if isinstance(card, Mapping):
                new.add(int(card["id"]))
        elif kind == "discard":
            card = event.get("card")
            if isinstance(card, Mapping):
                new.discard(int(card["id"]))
    return new


def events_context(
    *,
    history: list[dict[str, Any]],
    view: Mapping[str, Any],
    seat: int | None,
    seat_names: Sequence[str],
) -> dict[str, Any]:
    """What this seat has seen happen: recent lines, the visible pile as all
    saw it (for the draw choices), the cards it just drew, and whether the
    scoring table opens by itself (before the seat's first move)."""
    acted = seat is not None and any(
        e.get("seat") == seat and e.get("type") in ("discard", *LAYS) for e in history
    )
    stack = _visible_stack(history, view)
    new = _new_cards(history, seat) if not view.get("over") else set()
    return {
        **generic.event_log(history, lambda index: explain(history[index], seat_names, seat)),
        "visible_stack": [card_info({"id": c, **_card_fields(c)}) for c in stack],
        "visible_stack_data": ",".join(str(c) for c in stack),
        "new_cards": new,
        "ranking": _ranking(view, seat_names) if view.get("over") else [],
        "scoring_open": seat is not None and not acted and not view.get("over"),
        "how_to_play_open": seat is not None and not acted and not view.get("over"),
    }


def _card_fields(card: int) -> dict[str, Any]:
    if card >= 48:
        return {"blank": True, "artwork": None, "quarter": None}
    return {"blank": False, "artwork": card // 4 + 1, "quarter": card % 4}


__all__ = [
    "HIDDEN",
    "VISIBLE",
    "describe_event",
    "end_question",
    "events_context",
    "form_to_action",
    "public_summary",
    "refusal_message",
    "seat_context",
    "written_sum",
]


# ---------------------------------------------------------------- the teacher's reports
# Picktura's own columns in the pupil and class reports and their CSV (counted
# by classroom from its records; see cardgames.ui.ReportColumn for the keys).
REPORT_COLUMNS = (
    ReportColumn("tables", _("Parties"), _("parties")),
    ReportColumn("stat:exhibits", _("Œuvres exposées"), _("œuvres exposées")),
    ReportColumn("score", _("Points"), _("points (parties finies)")),
    ReportColumn("score_sums:right", _("Sommes justes"), _("sommes de points justes")),
    ReportColumn("score_sums:wrong", _("Sommes fausses"), _("sommes de points fausses")),
    ReportColumn("best_place", _("Meilleure place"), _("meilleure place")),
)


def report_places(view: Mapping[str, Any]) -> dict[int, int]:
    """Seat → place of a finished game, as the end screen ranks it: the
    rule book's tie-break (fewer cards in hand, then seat) gives every
    player a place of their own."""
    return {row["seat"]: row["place"] for row in _ranking(view, ())}
