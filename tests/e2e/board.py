"""The teacher's board, driven as a teacher would, one settled step at a time.

htmx swaps the new board in and only wires its forms when it settles (about
20 ms later): a choice made in between changes the select but posts nothing.
A teacher never taps that fast; a test does. Every step here waits for the
server's answer and for the board to settle before the next one."""

from __future__ import annotations

from typing import Any

SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"


def board_settled(page: Any) -> None:
    """Wait until no htmx request, swap or settle is under way on the page."""
    page.wait_for_function(SETTLED)


def groups_make(page: Any, size: int) -> None:
    """Press "groupes de <size>" and wait for the new board."""
    with page.expect_response(lambda r: r.url.endswith("/groups/") and r.request.method == "POST"):
        page.get_by_role("button", name=f"groupes de {size}").click()
    board_settled(page)


def table_robots(page: Any, *, level: str = "easy", places: int | None = None, table: int = 0) -> None:
    """Choose the robots' level (and the places) of one table, each choice
    waiting for the board the server draws back."""
    wanted = [("level", level)] + ([("size", str(places))] if places is not None else [])
    for name, value in wanted:
        select = page.locator(f".bots-form select[name={name}]").nth(table)
        if select.input_value() == value:
            continue
        with page.expect_response(lambda r: "/bots/" in r.url and r.request.method == "POST"):
            select.select_option(value)
        board_settled(page)
        assert page.locator(f".bots-form select[name={name}]").nth(table).input_value() == value


def choose_game(page: Any, game: str) -> None:
    """Pick the game on the session form and open its folded settings
    ("Réglages (facultatif)", issue 48), once htmx has drawn them."""
    page.locator(f'input[name="game"][value="{game}"]').check()
    page.locator(f'#game-options[data-game="{game}"]').wait_for(state="attached")
    board_settled(page)
    fold = page.locator("#game-options details.options-fold")
    if fold.count() and fold.get_attribute("open") is None:
        fold.locator("summary").click()
        page.wait_for_function(
            "() => document.querySelector('#game-options details.options-fold').open"
        )
