"""The one place the classroom names a game: the one a teacher is offered
first (and a session is created with when none is said).

Everything else the classroom knows of a game it asks the game's adapter
(``cardgames.ui.get(game)``: whether its plays are learning records, whether
it deals targeted cards, whether it can be practised solo), so a new game needs
no change here. Kept in a module of its own, with no import, because the
model's field default reads it too (its value is in the migrations: changing
it needs one).
"""

from __future__ import annotations

DEFAULT_GAME = "chasse"
