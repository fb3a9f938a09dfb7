"""The only code that changes a game, split by subject.

- :mod:`.tables`: a table's life (create, seats, start, pause, resume, end);
- :mod:`.moves`: the two-step card choice and ``action_submit``;
- :mod:`.bots`: bot moves and turn timers that fall due;
- :mod:`.turns`: who a table waits for (one planner for timers and bots);
- :mod:`.presence`: connected sockets, and closing them;
- :mod:`.notify`: channel-layer messages and the scheduler hook;
- :mod:`.after_reply`: a move's receivers run after the mover's own screen;
- :mod:`.errors`: ``ActionRefused`` and its wording;
- :mod:`.answers`: a player's answer to the game's end-of-game question;
- :mod:`.messages`: what one socket message does (``message_handle``);
- :mod:`.sockets`: a socket opening, and following a change of seats.

Every public function takes keyword-only arguments; those that change a
table's state take its lock first and say so. No module here names a game:
per-game wording lives in ``cardgames/ui/<game>/``.
"""

from cardgames.services.after_reply import (
    group_send_after_reply,
    receivers_after_reply,
    receivers_run,
)
from cardgames.services.answers import end_answer_submit
from cardgames.services.bots import MAX_BOT_MOVES_PER_CALL, bot_turns, table_next_due
from cardgames.services.errors import ActionRefused, refusal_message
from cardgames.services.moves import ActionResult, action_submit, card_choice_clear, card_choose
from cardgames.services.notify import (
    TableAfter,
    broadcast_stamp_take,
    move_after,
    presence_group,
    scheduler_register,
    table_group,
    table_notify,
)
from cardgames.services.presence import (
    TableMark,
    seat_connection_close,
    seat_connection_open,
    seat_connections_heartbeat,
    tables_close_sockets,
)
from cardgames.services.tables import (
    SeatSpec,
    bot_seat,
    seat_assign,
    table_create,
    table_end,
    table_pause,
    table_resume,
    table_start,
    table_successor,
)

__all__ = [
    "MAX_BOT_MOVES_PER_CALL",
    "ActionRefused",
    "ActionResult",
    "SeatSpec",
    "TableAfter",
    "TableMark",
    "action_submit",
    "bot_seat",
    "bot_turns",
    "broadcast_stamp_take",
    "card_choice_clear",
    "card_choose",
    "end_answer_submit",
    "group_send_after_reply",
    "move_after",
    "presence_group",
    "receivers_after_reply",
    "receivers_run",
    "refusal_message",
    "scheduler_register",
    "seat_assign",
    "seat_connection_close",
    "seat_connection_open",
    "seat_connections_heartbeat",
    "table_create",
    "table_end",
    "table_group",
    "table_next_due",
    "table_notify",
    "table_pause",
    "table_resume",
    "table_start",
    "table_successor",
    "tables_close_sockets",
]
