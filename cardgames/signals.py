"""What ``cardgames`` tells the rest of the project.

``actions_applied`` is sent after the transaction that applied a move has
committed (never for a move that was rolled back), so a receiver such as
``classroom.learning`` never records a play that did not happen.

Keyword arguments sent with it:

- ``table``: the :class:`~cardgames.models.Table`;
- ``seat``: the seat index that acted;
- ``player_key``: who sat there at that moment (``"pupil:42"``, ``"bot:hard"``);
- ``action``: the engine action applied;
- ``events``: the events it produced, in order;
- ``version``: the state version after the move;
- ``view_before``: that seat's own view just before the move (Chasse needs the
  hand before the play to tell whether a penalty was avoidable);
- ``timings``: ``{"think_ms": int | None, "compute_ms": int | None}``, measured
  by the server;
- ``timed_out`` and ``by_bot``: a bot played for the seat because its turn ran
  out, or because the seat is a bot.
"""

from __future__ import annotations

from django.dispatch import Signal

actions_applied = Signal()


action_refused = Signal()
"""Sent when the *engine* refused a move (``IllegalAction``): nothing changed,
but what a child tried can still teach (a Purrfect acceptance with the wrong
number of cards: the meow was misread). Never sent for the runtime's own
refusals (a stale screen, a paused table, a replayed nonce).

Keyword arguments: ``table``, ``seat``, ``player_key`` (who sat there, or
``None`` if unknown), ``action`` and ``code`` (the engine's stable code)."""


table_finished = Signal()
"""Sent after commit when a dealt table becomes ``finished``: its game is over
(after that move's ``actions_applied``), or whoever runs the table ended it
early (the bell rang, "Rejouer" started a new game). Keyword argument: ``table``.
Every game record written at the end of a table (``classroom.social``) hangs
off this one signal."""


end_answer_given = Signal()
"""Sent on commit when a player answered the game's end-of-game question
(Picktura: "Combien de points as-tu ?"). Keyword arguments: ``table``,
``seat``, ``player_key``, ``addends`` (list of ints), ``total`` (the right
answer), ``answer``, ``correct`` and ``compute_ms`` (from the game's end to
the answer, measured by the server)."""
