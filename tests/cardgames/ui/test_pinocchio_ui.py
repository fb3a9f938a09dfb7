"""Pinocchio's UI adapter: form → action, the sentences a child reads, what
each screen draws, and the teacher's counts of a finished table."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.utils import translation

from cardgames import rendering, ui
from cardgames.engines.base import IllegalAction
from cardgames.engines.pinocchio import ENGINE, card_face
from cardgames.ui import generic, pinocchio
from cardgames.ui.pinocchio.end import ranking
from cardgames.ui.pinocchio.faces import NOSE_MAX, nose_width
from cardgames.ui.pinocchio.sentences import explain
from tests.cardgames.factories import started_table

NAMES = ["Inès", "Léo", "Maximilienne-Charlotte", "Zoé"]


def _state(players: int = 4, lang: str = "fr", seed: int = 5):
    return ENGINE.new_game(players, seed, {"words_language": lang})


# ---------------------------------------------------------------- form → action
@pytest.mark.parametrize(
    ("form", "action"),
    [
        ({"move": "doubt"}, {"type": "doubt"}),
        ({"move": "believe", "garment": "x"}, {"type": "believe"}),
        (
            {"move": "announce", "garment": "chemise", "colour": "bleu"},
            {"type": "announce", "garment": "chemise", "colour": "bleu"},
        ),
    ],
)
def test_form_to_action(form: dict, action: dict) -> None:
    assert pinocchio.form_to_action(form) == action


@pytest.mark.parametrize(
    "form",
    [
        {},
        {"move": "lie"},
        {"move": "announce", "garment": "chapeau", "colour": "bleu"},
        {"move": "announce", "garment": "chemise", "colour": "vert"},
        {"move": "announce", "garment": ["chemise"], "colour": "bleu"},
        {"move": ["doubt"]},
    ],
)
def test_nonsense_forms_are_malformed(form: dict) -> None:
    with pytest.raises(IllegalAction) as info:
        pinocchio.form_to_action(form)
    assert info.value.code == "malformed"


# ---------------------------------------------------------------- refusals
ENGINE_CODES = (
    "not_your_turn",
    "cannot_doubt",
    "respond_first",
    "must_follow",
    "game_over",
    "malformed",
)


@pytest.mark.parametrize("code", ENGINE_CODES)
def test_every_engine_refusal_has_its_own_sentence(code: str) -> None:
    text = pinocchio.refusal_message(code)
    assert text and text != "Ce coup n'est pas possible."
    assert text == str(pinocchio.REFUSALS.get(code) or generic.RUNTIME_REFUSALS[code])


def test_engine_codes_are_the_ones_the_engine_raises() -> None:
    """The list above is the engine's: a code added there must get a sentence here."""
    source = Path(ENGINE.__module__.replace(".", "/") + ".py").read_text(encoding="utf-8")
    raised = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))
    base = Path("cardgames/engines/base.py").read_text(encoding="utf-8")
    raised |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', base)) & {"malformed"}
    assert raised <= set(ENGINE_CODES)


def test_must_follow_names_the_announcement_in_the_table_words() -> None:
    state = _state(lang="de")
    ENGINE.apply(state, 0, {"type": "announce", "garment": "chemise", "colour": "bleu"})
    ENGINE.apply(state, 1, {"type": "believe"})
    view = ENGINE.view(state, 1)
    text = pinocchio.explain_refusal(
        "must_follow",
        action={"type": "announce", "garment": "bonnet", "colour": "rouge"},
        view=view,
        history=ENGINE.history(state, 1),
        seat_names=NAMES,
    )
    assert (
        text
        == "Tu dois garder le vêtement ou la couleur de l'annonce d'avant : « ein blaues Hemd »."
    )


def test_cannot_doubt_after_a_doubt_says_why() -> None:
    state = _state()
    ENGINE.apply(state, 0, {"type": "announce", "garment": "chemise", "colour": "bleu"})
    ENGINE.apply(state, 1, {"type": "doubt"})
    ENGINE.apply(state, 1, {"type": "announce", "garment": "bonnet", "colour": "rouge"})
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 2, {"type": "doubt"})
    view = ENGINE.view(state, 2)
    text = pinocchio.explain_refusal(
        info.value.code, action={"type": "doubt"}, view=view, history=[], seat_names=NAMES
    )
    assert text == "Annonce libre après un doute : on ne peut pas douter."


# ---------------------------------------------------------------- the seat
def test_announce_grid_greys_what_does_not_follow_with_the_reason() -> None:
    state = _state(lang="en")
    ENGINE.apply(state, 0, {"type": "announce", "garment": "chemise", "colour": "bleu"})
    ENGINE.apply(state, 1, {"type": "believe"})
    view = ENGINE.view(state, 1)
    pn = pinocchio.seat_context(
        view=view, legal=ENGINE.legal_actions(state, 1), choice=None, seed=1, version=3
    )["pn"]
    assert len(pn["grid"]) == 15
    allowed = {tile["key"] for tile in pn["grid"] if tile["allowed"]}
    assert allowed == {f"{a['garment']}:{a['colour']}" for a in ENGINE.legal_actions(state, 1)}
    assert len(allowed) == 7
    greyed = [tile for tile in pn["grid"] if not tile["allowed"]]
    assert all("« a blue shirt »" in tile["why"] for tile in greyed)
    drawn = card_face(state.drawn)
    assert pn["drawn"]["key"] == f"{drawn[0]}:{drawn[1]}"
    assert pn["forced_lie"] == (pn["drawn"]["key"] not in allowed)
    assert [tile["key"] for tile in pn["grid"] if tile["mine"]] == [pn["drawn"]["key"]]


def test_after_a_doubt_all_fifteen_are_open_and_the_next_may_not_doubt() -> None:
    state = _state()
    ENGINE.apply(state, 0, {"type": "announce", "garment": "chemise", "colour": "bleu"})
    ENGINE.apply(state, 1, {"type": "doubt"})
    pn = pinocchio.seat_context(
        view=ENGINE.view(state, 1),
        legal=ENGINE.legal_actions(state, 1),
        choice=None,
        seed=1,
        version=3,
    )["pn"]
    assert all(tile["allowed"] for tile in pn["grid"]) and pn["free"]
    assert not pn["next_doubtable"]
    ENGINE.apply(state, 1, {"type": "announce", "garment": "bonnet", "colour": "rouge"})
    pn = pinocchio.seat_context(
        view=ENGINE.view(state, 2),
        legal=ENGINE.legal_actions(state, 2),
        choice=None,
        seed=1,
        version=4,
    )["pn"]
    assert pn["can_announce"] and not pn["can_judge"] and pn["no_doubt_why"]


# ---------------------------------------------------------------- sentences
def test_verdicts_in_the_interface_language_with_the_table_words() -> None:
    state = _state(lang="de", seed=9)
    card = state.drawn
    garment, colour = card_face(card)
    other = next(c for c in ("rouge", "bleu", "jaune") if c != colour)
    ENGINE.apply(state, 0, {"type": "announce", "garment": garment, "colour": other})  # a lie
    events = ENGINE.apply(state, 1, {"type": "doubt"})
    doubted = next(e for e in events if e["type"] == "doubted")
    from cardgames.ui.pinocchio.words import phrase

    words = phrase("de", garment, colour)
    line = explain(doubted, NAMES, None, "de")
    assert (
        line is not None
        and line["text"] == f"Léo doute ! C'était {words} : Inès a menti et prend un nez."
    )
    mine = explain(doubted, NAMES, 0, "de")
    assert mine is not None and mine["text"].endswith(
        f"C'était {words} : tu as menti et tu prends un nez."
    )
    with translation.override("en"):
        line = explain(doubted, NAMES, None, "de")
        assert line is not None and words in line["text"] and "Léo" in line["text"]


def test_a_true_card_doubted_costs_the_doubter() -> None:
    state = _state(seed=3)
    garment, colour = card_face(state.drawn)
    ENGINE.apply(state, 0, {"type": "announce", "garment": garment, "colour": colour})
    events = ENGINE.apply(state, 1, {"type": "doubt"})
    doubted = next(e for e in events if e["type"] == "doubted")
    from cardgames.ui.pinocchio.words import phrase

    line = explain(doubted, NAMES, None, "fr")
    assert line is not None
    assert (
        line["text"]
        == f"Léo doute ! C'était bien {phrase('fr', garment, colour)} : Léo prend un nez."
    )


def test_announcement_line_and_monitor_summary() -> None:
    state = _state(lang="de")
    ENGINE.apply(state, 0, {"type": "announce", "garment": "bonnet", "colour": "rouge"})
    laid = next(e for e in state.log if e["type"] == "card_laid")
    assert pinocchio.describe_event(laid, NAMES, {"words_language": "de"}) == "Inès annonce : « eine rote Mütze »."
    rows = dict(pinocchio.public_summary(ENGINE.view(state, None), NAMES))
    assert rows["Dernière annonce"] == "Inès : « eine rote Mütze »"
    assert rows["Au tour de"] == "Léo"
    assert rows["Nez"] == "Inès : 0 · Léo : 0 · Maximilienne-Charlotte : 0 · Zoé : 0"


def test_ranking_fewest_noses_first_and_ties_share() -> None:
    rows = ranking({"noses": [2, 0, 2, 1]}, NAMES)
    assert [(r["name"], r["place"], r["noses"]) for r in rows] == [
        ("Léo", 1, 0),
        ("Zoé", 2, 1),
        ("Inès", 3, 2),
        ("Maximilienne-Charlotte", 3, 2),
    ]


def test_nose_grows_with_the_count_and_stops_growing_at_a_readable_width() -> None:
    widths = [nose_width(n) for n in range(15)]
    assert widths == sorted(widths) and widths[0] < widths[3] < widths[6]
    assert max(widths) == NOSE_MAX


# ---------------------------------------------------------------- teacher's counts
def _play_out(state, rng: random.Random) -> None:
    while not ENGINE.is_over(state):
        seat = ENGINE.view(state, None)["current_seat"]
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))


def test_engine_stats_give_each_seat_its_doubts_bluffs_and_noses() -> None:
    """What the pupil's record stores (the engine's per-seat stats) adds up:
    every nose is a wrong doubt or a caught bluff."""
    state = _state(players=3, lang="en", seed=2)
    _play_out(state, random.Random(4))
    seat = ENGINE.game_stats(state)["seat"]
    for s in range(3):
        wrong_doubts = seat["doubts"][s] - seat["good_doubts"][s]
        assert state.noses[s] == wrong_doubts + seat["caught"][s]
        assert seat["caught"][s] <= seat["lies"][s] <= seat["bluffs"][s]


@pytest.mark.django_db
def test_screens_render_in_every_phase_without_leaking_other_cards() -> None:
    """A whole game rendered for every seat and the public after each move:
    a face-down card is never named on another seat's screen."""
    table = started_table(
        game="pinocchio", pupils=3, bots=1, options={"words_language": "de"}, seed=4
    )
    rng = random.Random(1)
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    state = snap.state
    seen_phases = set()
    for _ in range(80):
        snap.state = state
        for seat in (None, 0, 1, 2, 3):
            html = rendering.render_fragments(snap, seat)
            # The true faces this seat may see: its drawn card, its own last
            # laid card while hidden, and every card a doubt turned over.
            may = {
                f"{g}:{c}"
                for g, c in (card_face(laid.card) for laid in state.rangement if laid.revealed)
            }
            view = ENGINE.view(state, seat)
            for own in (view["drawn_card"], view["my_last_laid"]):
                if own:
                    may.add(f"{own['garment']}:{own['colour']}")
            shown = set(re.findall(r'data-card-face="([a-z_]+:[a-z]+)"', html))
            assert shown <= may, (seat, shown - may)
            if view["drawn_card"]:
                seen_phases.add("announce")
                assert 'class="pn-drawn"' in html
            else:
                assert 'class="pn-drawn"' not in html
            if "pn-doubt" in html:
                seen_phases.add("judge")
            if "pn-reveal" in html:
                seen_phases.add("reveal")
        if ENGINE.is_over(state):
            break
        current = ENGINE.view(state, None)["current_seat"]
        ENGINE.apply(state, current, rng.choice(ENGINE.legal_actions(state, current)))
    assert {"announce", "judge", "reveal"} <= seen_phases
    assert ui.get("pinocchio").seat_template == "cardgames/pinocchio/seat.html"
