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


def join_on(page: Any, url: str, code: str, pupil: dict[str, Any]) -> None:
    """A child's way in on ``page``: the code digit by digit (each shown before
    the next tap), their name, their two pictures. The caller waits for where
    it leads (the lobby, or the table when the pupil is seated already)."""
    page.goto(f"{url}/join")
    page.wait_for_load_state("networkidle")
    for typed, digit in enumerate(code[:-1], start=1):
        page.get_by_role("button", name=digit, exact=True).click()
        page.locator(".code-box.filled").nth(typed - 1).wait_for()
    page.get_by_role("button", name=code[-1], exact=True).click()
    page.wait_for_url("**/join/names/")
    page.get_by_role("link", name=pupil["display_name"], exact=True).click()
    page.wait_for_url("**/join/pupil/**")
    first, second = pupil["picture_code"]
    page.locator(f'button[name="pick"][value="{first}"]').click()
    page.locator(".pick-slot.filled").first.wait_for()
    page.locator(f'button[name="pick"][value="{second}"]').click()
