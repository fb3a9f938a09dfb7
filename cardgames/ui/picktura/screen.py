"""What Picktura's screens draw: the seat's hand, the piles, every player's
exhibits and what the seat may do now (``seat_context``), and what it has
seen happen (``events_context``). The projector and the replay draw the
public view through the same two functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from cardgames.engines.picktura import VISIBLE, PileMemory
from cardgames.ui import art, generic
from cardgames.ui.picktura.cards import card_fields, card_info, exhibit_info
from cardgames.ui.picktura.cartels import cartels
from cardgames.ui.picktura.end import end_question, end_reason, ranking, scoring_rows, written_sum
from cardgames.ui.picktura.forms import LAYS
from cardgames.ui.picktura.sentences import explain

VISIBLE_STACK = 5  # a lay draws at most 4; one more for the top after it
# The lays made on an exhibit already on the table, each a button under it.
EXHIBIT_LAYS = ("complete", "blank", "replace_blank")
LAY_LABELS = {
    "complete": ("🧩", _("Compléter")),
    "blank": ("⬜", _("Toile blanche")),
    "replace_blank": ("🔄", _("Remplacer la toile")),
}


# ---------------------------------------------------------------- the seat
def _lay_forms(legal: Sequence[Mapping[str, Any]]) -> dict[tuple[str, int | None], dict[str, Any]]:
    """One form per laying action on an exhibit (the cards are fixed by the
    rules: the missing quarters), with the number of cards it then draws."""
    forms: dict[tuple[str, int | None], dict[str, Any]] = {}
    for action in legal:
        kind = action.get("type")
        if kind not in EXHIBIT_LAYS:
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


def _exhibit_moves(legal: Sequence[Mapping[str, Any]]) -> tuple[dict[int, int], set[int]]:
    """For a new exhibit: how many cards a lay of each size draws, and which
    works the hand can lay (their cards are marked in the hand)."""
    draws: dict[int, int] = {}
    works: set[int] = set()
    for action in legal:
        if action.get("type") == "exhibit":
            cards = action.get("cards") or []
            draws.setdefault(len(cards), len(action.get("draw_from") or []))
            if cards:
                works.add(int(cards[0]) // 4 + 1)
    return draws, works


def _players_exhibits(
    view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], me: Any
) -> list[list[dict[str, Any]]]:
    """Every player's exhibits; the seat's own carry a button per lay it may make on them."""
    lay_forms = _lay_forms(legal)
    players: list[list[dict[str, Any]]] = []
    for seat, row in enumerate(view.get("exhibits") or []):
        infos = [exhibit_info(ex, index) for index, ex in enumerate(row)]
        if seat == me:
            for info in infos:
                for kind in EXHIBIT_LAYS:
                    form = lay_forms.get((kind, info["index"]))
                    if form is not None:
                        icon, label = LAY_LABELS[kind]
                        info["actions"].append({**form, "icon": icon, "label": str(label)})
        players.append(infos)
    return players


def _player_extras(view: Mapping[str, Any], players_exhibits: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each seat's exhibits, cards in hand and points, merged into its player card."""
    hand_counts = list(view.get("hand_counts") or [])
    scores = list(view.get("exhibit_scores") or [])
    return [
        {
            "exhibits": players_exhibits[s] if s < len(players_exhibits) else [],
            "hand_count": hand_counts[s] if s < len(hand_counts) else 0,
            "score": scores[s] if s < len(scores) else 0,
        }
        for s in range(int(view.get("players") or 0))
    ]


def _end_context(view: Mapping[str, Any], choice: Mapping[str, Any] | None) -> dict[str, Any]:
    """After the game: the sum to add up, or the seat's answer to it, then
    the ranking (only once the seat has answered)."""
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
        "end_reason": end_reason(view.get("end_reason")) if over else "",
        "sum_question": question if asking else None,
        "blanks_in_hand_range": range(question["blanks_in_hand"]) if question and asking else range(0),
        "sum_result": sum_result,
        "show_ranking": over and not asking,
        # Each pupil adds up their own score: until they have answered (the
        # seats in ``scores_shown``, from ``rendering``), no screen shows it.
        "sums_asked": over and bool((view.get("options") or {}).get("score_sums", True)),
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
    hand = [card_info(c) for c in view.get("hand") or []]
    just_taken = view.get("just_taken")
    taken_id = just_taken.get("id") if isinstance(just_taken, Mapping) else None
    exhibit_draws, exhibit_works = _exhibit_moves(legal)
    players_exhibits = _players_exhibits(view, legal, me)
    for card in hand:
        if card is not None:
            card["new"] = card["id"] == taken_id
            card["exhibitable"] = card["work"] in exhibit_works
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
        "discarding": "discard" in kinds,
        "just_taken": card_info(just_taken) if isinstance(just_taken, Mapping) else None,
        "can_exhibit": "exhibit" in kinds,
        "exhibit_draws": exhibit_draws,
        "exhibit_draws_data": ",".join(f"{k}:{n}" for k, n in sorted(exhibit_draws.items())),
        "can_lay": bool(kinds & set(LAYS)),
        "my_exhibits": players_exhibits[me] if isinstance(me, int) and me < len(players_exhibits) else [],
        "player_extras": _player_extras(view, players_exhibits),
        "scoring": scoring_rows(),
        "rebuilds": view.get("rebuilds", 0),
        "rebuild_limit": view.get("rebuild_limit", 2),
        "my_score": view.get("my_score"),
        **_end_context(view, choice),
        "keypad": [7, 8, 9, 4, 5, 6, 1, 2, 3],
        "cartels": [{**c, "src": art.picktura_work_src(c["number"])} for c in cartels()],
    }


# ---------------------------------------------------------------- what happened
def _visible_stack(history: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> list[int]:
    """The visible pile from its top down (at most ``VISIBLE_STACK`` cards), as
    every player saw it built; only the top when the log does not tell."""
    memory = PileMemory()
    for event in history:
        memory.update(dict(event))
    top = view.get("visible_top")
    if memory.players and memory.matches(dict(view)):
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
        "visible_stack": [card_info({"id": c, **card_fields(c)}) for c in stack],
        "visible_stack_data": ",".join(str(c) for c in stack),
        "new_cards": new,
        "ranking": ranking(view, seat_names) if view.get("over") else [],
        "scoring_open": seat is not None and not acted and not view.get("over"),
        "how_to_play_open": seat is not None and not acted and not view.get("over"),
    }
