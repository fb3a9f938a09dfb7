"""Each social game its own columns in the teacher's reports (issue 46, item 4).

One "Jeux de société" table for every game showed Pinocchio and Picktura rows
with "Échanges 0 / « Purrfect! » trop tôt 0 / Miaou mal lu 0", called
Pinocchio's noses "Points" (fewer is better there) and needed sideways
scrolling at 1280 px. Each game now declares its columns in its UI adapter;
the pupil page, the class page and the CSV draw a table per game."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cardgames import engines, ui
from cardgames import services as cg
from cardgames.models import GameState
from tests.classroom.test_reports import MAX_QUERIES
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db(transaction=True)

PURRFECT_ONLY = (
    "Échanges",
    "Offres retirées",
    "« Purrfect! » trop tôt",
    "Miaous mal lus",
    "Pattes",
)


def _played(session: Any, pupils: list[Any], game: str, options: dict[str, Any], seed: int) -> None:
    """A table of ``pupils`` played to its end (moves through the service)."""
    table = cg.table_create(
        game=game,
        seats=[
            cg.SeatSpec(player_key=p.player_key, display_name=p.display_name, avatar=p.avatar)
            for p in pupils
        ],
        options=options,
        seed=seed,
        group_key=session.group_key,
    )
    cg.table_start(table=table)
    engine = engines.get(game)
    rng = random.Random(seed)
    for n in range(4000):
        game_state = GameState.objects.get(table=table)
        state = engine.from_json(game_state.state)
        if engine.is_over(state):
            return
        current = engine.view(state, None).get("current_seat")
        seat = rng.randrange(len(pupils)) if current is None else current
        legal = engine.legal_actions(state, seat)
        if not legal:
            continue
        action = engine.bot("medium")(
            engine.view(state, seat), legal, rng, engine.history(state, seat)
        )
        cg.action_submit(
            table=table,
            seat=seat,
            action=action or rng.choice(legal),
            version=game_state.version,
            nonce=f"{game}{seed}-{n}",
        )
    raise AssertionError(f"{game} did not finish")


@pytest.fixture
def lesson() -> dict[str, Any]:
    """One lesson where the same four pupils played each social game once."""
    session = ClassSessionFactory(game="purrfect")
    pupils = [
        PupilFactory(school_class=session.school_class, display_name=name)
        for name in ("Léa", "Tom", "Inès", "Noé")
    ]
    _played(session, pupils, "purrfect", {"paws_to_win": 1, "round_actions": 100}, 3)
    _played(session, pupils[:3], "pinocchio", {"words_language": "de"}, 3)
    _played(session, pupils[:3], "picktura", {}, 50)
    client = Client()
    client.force_login(session.school_class.teacher)
    return {"session": session, "pupils": pupils, "client": client}


def _block(html: str, game: str) -> str:
    start = html.index(f'id="social-{game}"')
    return html[start : html.index("</table>", start)]


def _headers(block: str) -> list[str]:
    head = block[block.index("<thead>") : block.index("</thead>")]
    return [
        re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)
    ]


def test_every_social_game_declares_its_own_columns_in_its_adapter() -> None:
    keys = {game: [c.key for c in ui.get(game).report_columns] for game in engines.names()}
    assert keys["purrfect"] == [
        "tables", "finished", "trades", "offers_withdrawn", "mistaken_claims",
        "wrong_count_accepts", "score", "best_place",
    ]  # fmt: skip
    assert keys["pinocchio"] == [
        "tables", "stat:doubts", "stat:good_doubts", "stat:bluffs", "stat:caught", "score",
        "option:words_language",
    ]  # fmt: skip
    assert keys["picktura"] == [
        "tables", "stat:exhibits", "score", "score_sums:right", "score_sums:wrong", "best_place",
    ]  # fmt: skip
    assert keys["chasse"] == []  # not a social game
    lower = [c.key for c in ui.get("pinocchio").report_columns if c.lower_is_better]
    assert lower == ["score"]


def test_the_pupil_page_draws_a_table_per_game_with_its_own_columns(
    lesson: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    url = reverse("classroom:pupil_report", args=[lesson["pupils"][0].pk])
    lesson["client"].get(url)
    with django_assert_max_num_queries(MAX_QUERIES):
        page = lesson["client"].get(url)
    html = page.content.decode()
    purrfect, pinocchio, picktura = (_block(html, g) for g in ("purrfect", "pinocchio", "picktura"))
    assert _headers(purrfect) == [
        "Séance", "Parties", "Finies", "Échanges", "Offres retirées", "« Purrfect! » trop tôt",
        "Miaous mal lus", "Pattes", "Meilleure place",
    ]  # fmt: skip
    assert _headers(pinocchio) == [
        "Séance", "Parties", "Doutes", "Doutes justes", "Bluffs", "Bluffs découverts",
        "Nez↓ moins = mieux", "Mots en",
    ]  # fmt: skip
    assert _headers(picktura) == [
        "Séance", "Parties", "Œuvres exposées", "Points", "Sommes justes", "Sommes fausses",
        "Meilleure place",
    ]  # fmt: skip
    for block in (pinocchio, picktura):
        assert not any(word in block for word in PURRFECT_ONLY), block
    # On a phone each figure names its column (the header row is hidden).
    assert 'data-label="Nez (moins = mieux)"' in pinocchio
    assert 'data-label="Mots en"><span>allemand<' in pinocchio
    # The figures are the records'.
    games = {t.game: t for t in page.context["report"].social}
    leo = {game: t.values(t.rows[0]) for game, t in games.items()}
    assert leo["purrfect"]["tables"] == leo["purrfect"]["finished"] == 1
    assert leo["pinocchio"]["option:words_language"] == "allemand"
    assert leo["picktura"]["score_sums:right"] == leo["picktura"]["score_sums:wrong"] == 0


def test_the_class_page_and_the_csv_give_each_game_its_own_columns(
    lesson: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    url = reverse("classroom:class_report", args=[lesson["session"].school_class_id])
    lesson["client"].get(url)
    with django_assert_max_num_queries(MAX_QUERIES):
        page = lesson["client"].get(url)
    html = page.content.decode()
    main = html[html.index('class="rp-table rp-class-table"') :]
    main = main[: main.index("</table>")]
    assert "Purrfect" not in main  # the Chasse table keeps its own columns only
    pinocchio = _block(html, "pinocchio")
    assert _headers(pinocchio)[0] == "Élève" and "moins = mieux" in pinocchio
    assert not any(word in pinocchio for word in PURRFECT_ONLY)
    rows = {t.game: len(t.rows) for t in page.context["report"].social.tables}
    assert rows == {"purrfect": 4, "pinocchio": 3, "picktura": 3}
    response = lesson["client"].get(
        reverse("classroom:class_report_csv", args=[lesson["session"].school_class_id])
    )
    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    header = lines[0].split(";")
    social = header[header.index("À surveiller") + 1 :]
    assert social[:2] == ["Picktura : parties", "Picktura : œuvres exposées"]
    assert "Pinocchio : nez (parties finies, moins = mieux)" in social
    assert "Purrfect : miaous mal lus" in social
    assert not any(h.startswith("Pinocchio : échanges") for h in social)
    noe = next(line.split(";") for line in lines[1:] if line.startswith("Noé;"))
    by_header = dict(zip(header, noe, strict=True))
    # Noé played Purrfect only: the other games' cells stay empty.
    assert by_header["Pinocchio : parties"] == "" and by_header["Purrfect : parties"] == "1"
