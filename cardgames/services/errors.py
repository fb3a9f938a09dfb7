"""What a refused move looks like to the code above services."""

from __future__ import annotations

from cardgames import ui


class ActionRefused(Exception):
    """A refused move or message: nothing changed. ``code`` is stable (tests and
    templates rely on it); ``message`` is the sentence shown to the child, worded
    by the game's UI (``game``) or, for the runtime's own codes, generically."""

    # Set when the engine refused it (not the runtime): see ``signals.action_refused``.
    by_engine = False
    player_key: str | None = None

    def __init__(self, code: str, *, game: str = "") -> None:
        self.code = code
        self.game = game
        super().__init__(code)

    @property
    def message(self) -> str:
        return refusal_message(code=self.code, game=self.game)


def refusal_message(*, code: str, game: str = "") -> str:
    """The sentence for ``code``: the game's own wording, else the generic one."""
    return ui.get(game).refusal_message(code) if game else ui.generic.refusal_message(code)
