"""Social records: a pupil's participation at a finished Purrfect table."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from cardgames import engines
from cardgames import services as cg
from cardgames.engines.purrfect import card_cat
from cardgames.models import GameState, Table
from classroom import social
from classroom.models import LearningRecord, SocialRecord
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _purrfect_table(session, pupils):
    seats = [
        cg.SeatSpec(player_key=p.player_key, display_name=p.display_name, avatar=p.avatar)
        for p in pupils
    ] + [cg.bot_seat(level="easy", number=n + 1) for n in range(4 - len(pupils))]
    table = cg.table_create(
        game="purrfect",
        seats=seats,
        options={"paws_to_win": 2, "round_actions": 100},
        group_key=session.group_key,
        seed=21,
    )
    cg.table_start(table=table)
    return table


def _state(table):
    engine = engines.get("purrfect")
    return engine, engine.from_json(GameState.objects.get(table=table).state)


def _play(table, seat, action, n=[0]):  # noqa: B006 - a counter for nonces
    n[0] += 1
    return cg.action_submit(table=table, seat=seat, action=action, version=None, nonce=f"s{n[0]}")


def assert_scroll_boxes_take_focus(html: str, *, count: int | None = None) -> None:
    """The wide report tables scroll sideways on a phone: a keyboard user must be
    able to focus each scroll box, and a screen reader must say what it holds.
    ``count``: how many boxes (``None``: at least one)."""
    boxes = re.findall(r'<div class="rp-scroll"[^>]*>', html)
    assert len(boxes) == count if count is not None else boxes
    for box in boxes:
        assert 'tabindex="0"' in box and 'role="region"' in box, box
        name = re.search(r'aria-label(?:ledby)?="([^"]*)"', box)
        assert name is not None and name.group(1).strip(), box


def test_a_finished_table_writes_one_participation_row_per_pupil() -> None:
    session = ClassSessionFactory(game="purrfect")
    names = ["Léo", "Inès", "Noé", "Zoé"]
    pupils = [PupilFactory(school_class=session.school_class, display_name=n) for n in names]
    leo, ines = pupils[:2]
    # Pupils only: no bot scheduler runs behind the test's back.
    table = _purrfect_table(session, pupils)
    engine, state = _state(table)
    # Léo offers one card; Inès first answers with two (the meow misread), then one.
    offered = state.hands[0][0]
    _play(table, 0, {"type": "offer", "cards": [offered]})
    engine, state = _state(table)
    offer = state.offers[-1].id
    two = [c for c in state.hands[1] if card_cat(c) == card_cat(state.hands[1][0])][:2]
    if len(two) == 2:
        with pytest.raises(cg.ActionRefused):
            _play(table, 1, {"type": "accept", "offer": offer, "cards": two})
    _play(table, 1, {"type": "accept", "offer": offer, "cards": [state.hands[1][0]]})
    _play(table, 0, {"type": "claim"})  # not nine of a kind: a mistaken claim
    _play(table, 1, {"type": "offer", "cards": [_state(table)[1].hands[1][0]]})
    _play(table, 1, {"type": "withdraw"})
    rng = random.Random(4)
    for _ in range(3000):  # everybody plays on, as bots would, until the end
        engine, state = _state(table)
        if engine.is_over(state):
            break
        seat = rng.randrange(4)
        legal = engine.legal_actions(state, seat)
        action = engine.bot("medium")(engine.view(state, seat), legal, rng, engine.history(state, seat))
        if action is not None:
            _play(table, seat, action)
    engine, state = _state(table)
    assert engine.is_over(state)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    rows = {r.pupil_id: r for r in SocialRecord.objects.all()}
    assert set(rows) == {p.pk for p in pupils}
    stats = engine.game_stats(state)["seat"]
    result = engine.result(state)
    for seat, pupil in enumerate([leo, ines]):
        row = rows[pupil.pk]
        assert row.finished_at is not None and row.game == "purrfect" and row.players == 4
        assert row.trades == stats["trades"][seat] >= 1
        assert row.offers_withdrawn == stats["withdrawals"][seat]
        assert row.mistaken_claims == stats["failed_claims"][seat]
        assert row.score == result["scores"][seat]
        assert row.won == (seat in result["winners"])
        assert row.rank == social.ranks(result)[seat]
    assert rows[leo.pk].mistaken_claims >= 1
    assert rows[ines.pk].offers_withdrawn >= 1
    assert rows[ines.pk].wrong_count_accepts == (1 if len(two) == 2 else 0)
    # A social game never feeds the Chasse figures.
    assert not LearningRecord.objects.exists()
    # Writing twice changes nothing.
    social.social_records_write(table_id=table.pk)
    assert SocialRecord.objects.count() == 4


def test_ranks_share_a_place_on_equal_scores() -> None:
    result = {"ranking": [2, 0, 1, 3], "scores": [3, 3, 5, 1], "winners": [2]}
    assert social.ranks(result) == {2: 1, 0: 2, 1: 2, 3: 4}


def test_bots_and_chasse_tables_get_no_social_row() -> None:
    session = ClassSessionFactory(game="purrfect")
    table = _purrfect_table(session, PupilFactory.create_batch(4, school_class=session.school_class))
    assert social.refusal_count(table_id=table.pk, player_key="bot:easy", code="wrong_count") is None
    assert not social.is_social("chasse")
    assert social.is_social("purrfect") and social.is_social("pinocchio")


def test_a_table_the_teacher_ends_early_still_counts() -> None:
    """The bell rings mid-game: the participation so far is written all the same."""
    session = ClassSessionFactory(game="purrfect")
    pupils = PupilFactory.create_batch(4, school_class=session.school_class)
    table = _purrfect_table(session, pupils)
    _engine, state = _state(table)
    _play(table, 0, {"type": "offer", "cards": [state.hands[0][0]]})
    _play(table, 0, {"type": "withdraw"})
    assert not SocialRecord.objects.filter(finished_at__isnull=False).exists()
    cg.table_end(table=table)
    rows = {r.pupil_id: r for r in SocialRecord.objects.filter(finished_at__isnull=False)}
    assert set(rows) == {p.pk for p in pupils}
    assert rows[pupils[0].pk].offers_withdrawn == 1
    # Cut short: no place and no win (issue 46).
    assert not any(r.won or r.completed or r.rank is not None for r in rows.values())


def test_reports_show_participation_and_keep_it_out_of_the_chasse_figures(
    django_assert_max_num_queries: Any,
) -> None:
    from django.test import Client
    from django.urls import reverse

    from tests.classroom.test_reports import MAX_QUERIES

    session = ClassSessionFactory(game="purrfect")
    pupils = PupilFactory.create_batch(4, school_class=session.school_class)
    table = _purrfect_table(session, pupils)
    _engine, state = _state(table)
    _play(table, 0, {"type": "offer", "cards": [state.hands[0][0]]})
    _play(table, 1, {"type": "accept", "offer": _state(table)[1].offers[-1].id,
                     "cards": [state.hands[1][0]]})
    _play(table, 2, {"type": "claim"})
    cg.table_end(table=table)
    client = Client()
    client.force_login(session.school_class.teacher)
    url = reverse("classroom:pupil_report", args=[pupils[2].pk])
    client.get(url)
    with django_assert_max_num_queries(MAX_QUERIES):
        page = client.get(url)
    html = page.content.decode()
    section = html[html.index('id="social-games"') :]
    section = section[: section.index("</section>")]
    assert "Jeux de société" in section and "Purrfect" in section
    assert_scroll_boxes_take_focus(section, count=1)  # Purrfect has no details table
    (game,) = page.context["report"].social
    figures = game.values(game.rows[0])
    assert game.game == "purrfect"
    assert (figures["tables"], figures["finished"]) == (1, 0)  # the lesson ended it
    assert (figures["mistaken_claims"], figures["trades"]) == (1, 0)
    assert figures["best_place"] is None and "dont 1 non terminée" in section
    assert page.context["report"].figures.summary.announcements == 0
    trader = client.get(reverse("classroom:pupil_report", args=[pupils[0].pk]))
    game = trader.context["report"].social[0]
    assert game.values(game.rows[0])["trades"] == 1
    report = client.get(reverse("classroom:class_report", args=[session.school_class.pk]))
    html = report.content.decode()
    assert 'id="social-purrfect"' in html and "Purrfect" in html
    rows = {r.pupil.pk: r for r in report.context["report"].rows}
    assert rows[pupils[0].pk].social == [1]
    assert report.context["report"].total.announcements == 0


def test_a_pupil_who_played_only_purrfect_is_not_reported_absent_from_the_lesson() -> None:
    """A Purrfect lesson has no sums: its players still played, and only the
    pupil who stayed away says "n'a pas joué"."""
    from django.test import Client
    from django.urls import reverse

    session = ClassSessionFactory(game="purrfect")
    pupils = PupilFactory.create_batch(4, school_class=session.school_class)
    away = PupilFactory(school_class=session.school_class, display_name="Zoé")
    table = _purrfect_table(session, pupils)
    cg.table_end(table=table)
    client = Client()
    client.force_login(session.school_class.teacher)
    page = client.get(
        reverse("classroom:class_report", args=[session.school_class.pk]),
        {"session": session.pk},
    )
    html = page.content.decode()
    rows = {r.pupil.pk: r for r in page.context["report"].rows}
    assert all(rows[p.pk].played for p in pupils) and not rows[away.pk].played
    assert html.count("n'a pas joué à cette séance") == 1
    zoe_row = html[html.index(">Zoé<") :].split("</tr>", 1)[0]
    assert "n'a pas joué à cette séance" in zoe_row
