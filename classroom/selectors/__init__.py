"""Reads behind the classroom pages, one module per subject, each page a fixed
number of queries:

- ``sessions``: classes, open sessions, who joined, the grouping board, the lobby;
- ``monitor``: the live monitor's tables and free pupils;
- ``records``: a pupil's records as plays, and the per-pupil figures cache;
- ``summaries``: per-session counts, stored (raw-SQL reader) or live from the records;
- ``focus``: a pupil's targeted cards, assigned practices and how they went;
- ``reports``: the class report, the pupil page, the parent page, the child's page.

The statistics themselves are pure and live in ``classroom.insights``.
"""

from classroom.selectors.focus import (
    AssignmentOutcome,
    assignment_outcomes,
    open_assignment,
    pupil_focus_of,
)
from classroom.selectors.records import pupil_cached, pupil_records_version, records_as_plays
from classroom.selectors.reports import (
    ClassReport,
    ClassReportRow,
    ParentReport,
    PupilFigures,
    PupilOwnPage,
    PupilReport,
    class_report,
    class_report_cached,
    class_report_chart,
    class_reports_version,
    parent_report,
    pupil_own_page,
    pupil_report,
)
from classroom.selectors.score_sums import pupil_score_sums
from classroom.selectors.sessions import (
    Board,
    BoardGroup,
    attacked_pupils,
    joined_pupils,
    locked_pupils,
    open_session_of_class,
    open_sessions,
    pupil_group_number,
    pupil_table,
    session_board,
    session_tablets,
    teacher_classes,
    teacher_open_sessions,
)
from classroom.selectors.social import (
    ClassSocialTables,
    SocialGameTable,
    class_social_tables,
    pupil_social_tables,
)
from classroom.selectors.summaries import class_summaries

__all__ = [
    "AssignmentOutcome",
    "Board",
    "BoardGroup",
    "ClassReport",
    "ClassReportRow",
    "ClassSocialTables",
    "ParentReport",
    "PupilFigures",
    "PupilOwnPage",
    "PupilReport",
    "SocialGameTable",
    "assignment_outcomes",
    "attacked_pupils",
    "class_report",
    "class_report_cached",
    "class_report_chart",
    "class_reports_version",
    "class_social_tables",
    "class_summaries",
    "joined_pupils",
    "locked_pupils",
    "open_assignment",
    "open_session_of_class",
    "open_sessions",
    "parent_report",
    "pupil_cached",
    "pupil_focus_of",
    "pupil_group_number",
    "pupil_own_page",
    "pupil_records_version",
    "pupil_report",
    "pupil_score_sums",
    "pupil_social_tables",
    "pupil_table",
    "records_as_plays",
    "session_board",
    "session_tablets",
    "teacher_classes",
    "teacher_open_sessions",
]
