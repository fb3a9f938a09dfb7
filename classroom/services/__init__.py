"""Everything that changes classroom data, one module per subject; views and
consumers stay thin.

Functions take keyword-only arguments. Those that change shared state take a
row lock first (``select_for_update``: a real lock on PostgreSQL; on SQLite
``transaction_mode=IMMEDIATE`` serialises writers anyway) and say so. Live
pages are told "something changed" with ``transaction.on_commit``
(``services.events``), so they never render data that is then rolled back.

- ``classes``, ``pupils``: the teacher's classes and pupils, picture codes, locks;
- ``sessions``: open, change, end a session; ``joining``: tablets in and out;
- ``groups``: the grouping board; ``tables``: deal the tables, "Rejouer";
- ``monitor``: the live monitor's commands; ``practice``: solo practice;
- ``parents``: parent links; ``events``: the live pages' channel groups.
"""

from classroom.services.classes import (
    class_create,
    class_delete,
    class_link_rotate,
    class_update,
)
from classroom.services.events import lobby_group, projector_group, session_changed
from classroom.services.groups import (
    group_add,
    group_options,
    group_seat_count,
    group_set_bots,
    group_set_options,
    groups_make,
    pupil_move,
)
from classroom.services.joining import tablet_login, tablet_sign_out
from classroom.services.practice import assignment_create, assignments_finish
from classroom.services.pupils import (
    PASTED_NAME_MAX,
    CodeCheck,
    names_cut,
    new_picture_code,
    parse_names,
    pupil_attack_count,
    pupil_check_code,
    pupil_delete,
    pupil_is_locked,
    pupil_recently_attacked,
    pupil_regenerate_code,
    pupil_unlock,
    pupil_update,
    pupils_add,
    pupils_unlock_all,
    unique_name,
)
from classroom.services.sessions import (
    new_join_code,
    session_end,
    session_start,
    session_update_options,
    sessions_to_purge,
)
from classroom.services.tables import StartReport, pupil_seat, table_rematch, tables_start

__all__ = [
    "PASTED_NAME_MAX",
    "CodeCheck",
    "StartReport",
    "assignment_create",
    "assignments_finish",
    "class_create",
    "class_delete",
    "class_link_rotate",
    "class_update",
    "group_add",
    "group_options",
    "group_seat_count",
    "group_set_bots",
    "group_set_options",
    "groups_make",
    "lobby_group",
    "names_cut",
    "new_join_code",
    "new_picture_code",
    "parse_names",
    "projector_group",
    "pupil_attack_count",
    "pupil_check_code",
    "pupil_delete",
    "pupil_is_locked",
    "pupil_move",
    "pupil_recently_attacked",
    "pupil_regenerate_code",
    "pupil_seat",
    "pupil_unlock",
    "pupil_update",
    "pupils_add",
    "pupils_unlock_all",
    "session_changed",
    "session_end",
    "session_start",
    "session_update_options",
    "sessions_to_purge",
    "table_rematch",
    "tables_start",
    "tablet_login",
    "tablet_sign_out",
    "unique_name",
]
