"""Pinocchio in the teacher's pupil report: doubts made and right, bluffs and
bluffs caught, noses (fewer is better) and the word language, from the table's
record, in Pinocchio's own table."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cardgames import engines
from cardgames import services as cg
from cardgames.models import GameState
from classroom.models import SocialRecord
from tests.classroom.test_reports import MAX_QUERIES
from tests.classroom.test_social import assert_scroll_boxes_take_focus
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db(transaction=True)

GERMAN_WORDS = re.compile(r"\b(Mütze|Fliege|Hemd|Hose|Holzschuhe)\b")
FRENCH_WORDS = re.compile(r"\b(bonnet|nœud papillon|chemise|pantalon|sabots)\b")


def _finished_pinocchio_table(session, pupils, seed: int):
    """Pupils only (no bot scheduler behind the test's back), played to the end."""
    seats = [
        cg.SeatSpec(player_key=p.player_key, display_name=p.display_name, avatar=p.avatar)
        for p in pupils
    ]
    table = cg.table_create(
        game="pinocchio",
        seats=seats,
        options={"words_language": "de"},
        group_key=session.group_key,
        seed=seed,
    )
    cg.table_start(table=table)
    engine = engines.get("pinocchio")
    rng = random.Random(seed)
    for n in range(200):
        game_state = GameState.objects.get(table=table)
        state = engine.from_json(game_state.state)
        if engine.is_over(state):
            break
        seat = engine.view(state, None)["current_seat"]
        action = rng.choice(engine.legal_actions(state, seat))
        cg.action_submit(
            table=table, seat=seat, action=action, version=game_state.version, nonce=f"p{seed}-{n}"
        )
    state = engine.from_json(GameState.objects.get(table=table).state)
    assert engine.is_over(state)
    return table, engine, state


def test_the_pupil_report_shows_doubts_bluffs_noses_and_the_word_language(
    django_assert_max_num_queries: Any,
) -> None:
    session = ClassSessionFactory(game="pinocchio", options={"words_language": "de"})
    pupils = [
        PupilFactory(school_class=session.school_class, display_name=n)
        for n in ("Léo", "Inès", "Noé")
    ]
    table, engine, state = _finished_pinocchio_table(session, pupils, seed=3)
    stats = engine.game_stats(state)["seat"]
    records = {r.pupil_id: r for r in SocialRecord.objects.filter(table_id=table.pk)}
    assert len(records) == 3
    leo = records[pupils[0].pk]
    assert leo.score == state.noses[0]
    assert leo.details["options"] == {"words_language": "de"}
    for key in ("doubts", "good_doubts", "bluffs", "caught"):
        assert leo.details["stats"][key] == stats[key][0]

    client = Client()
    client.force_login(session.school_class.teacher)
    url = reverse("classroom:pupil_report", args=[pupils[0].pk])
    client.get(url)
    with django_assert_max_num_queries(MAX_QUERIES):
        page = client.get(url)
    # Pinocchio's own columns (issue 46): no trades, and the noses said to be
    # better when fewer.
    (pinocchio,) = page.context["report"].social
    assert pinocchio.game == "pinocchio" and pinocchio.title == "Pinocchio"
    assert [c.label for c in pinocchio.columns] == [
        "Parties", "Doutes", "Doutes justes", "Bluffs", "Bluffs découverts", "Nez", "Mots en",
    ]  # fmt: skip
    assert [c.key for c in pinocchio.columns if c.lower_is_better] == ["score"]
    assert [cell.value for cell in pinocchio.rows[0].cells] == [
        1,
        stats["doubts"][0],
        stats["good_doubts"][0],
        stats["bluffs"][0],
        stats["caught"][0],
        state.noses[0],
        "allemand",
    ]
    html = page.content.decode()
    section = html[html.index('id="social-games"') :]
    section = section[: section.index("</section>")]
    assert (
        'id="social-pinocchio"' in section
        and "Bluffs découverts" in section
        and "allemand" in section
        and "moins = mieux" in section
        and "Échanges" not in section
    )
    assert_scroll_boxes_take_focus(section, count=1)  # Pinocchio's own table only


def test_the_monitor_and_the_replay_name_the_garments_in_the_tables_word_language() -> None:
    """A French class practising German: the teacher's monitor and the replay
    tell the announcements with the German words the children heard."""
    from classroom.selectors.monitor import table_card_context

    session = ClassSessionFactory(game="pinocchio", options={"words_language": "de"})
    pupils = [
        PupilFactory(school_class=session.school_class, display_name=n)
        for n in ("Léo", "Inès", "Noé")
    ]
    table, _engine, _state = _finished_pinocchio_table(session, pupils, seed=3)
    card = table_card_context(table.pk, session)
    assert card is not None
    told = " ".join(card["events"])
    assert " annonce : « " in told, told
    assert GERMAN_WORDS.search(told), told
    assert not FRENCH_WORDS.search(told), told
    client = Client()
    client.force_login(session.school_class.teacher)
    url = reverse("cardgames:replay", args=[table.pk])
    for step in range(1, 6):  # the first announcement comes within the first moves
        page = client.get(url, {"step": step}, headers={"HX-Request": "true"})
        assert page.status_code == 200
        lines = re.findall(r"annonce : « [^»]+ »", page.content.decode())
        if lines:
            break
    assert lines and all(GERMAN_WORDS.search(line) for line in lines), lines
    assert not any(FRENCH_WORDS.search(line) for line in lines), lines
