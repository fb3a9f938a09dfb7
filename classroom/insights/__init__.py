"""What a pupil's learning records say: the pure figures behind the reports.

No database here: every function takes plain :class:`Play` values (or stored
per-session counts) and returns frozen values, so tests and the demo-data
generator feed them directly and every page agrees. One module per subject:

- ``plays``: the input value; ``numbers``: percentages, rates, medians;
- ``summary``: a pupil's figures, per session, and the trend;
- ``flags``: "à surveiller"; ``grids``: fluency, carries, errors by kind;
- ``practice``: what to practise next; ``focus``: the cards to target for it;
  ``tips``: tips for parents;
- ``rewards``: the child's stars and streak; ``games``: the last games.

Every function walks the records once (O(n)); ~10,000 records per pupil take
a few milliseconds. User-facing strings are translated when read or built,
never at import time.
"""

from classroom.insights.flags import Flag, rising_mult10, watch_flags
from classroom.insights.focus import PupilFocus, pupil_focus
from classroom.insights.games import RecentGame, recent_games
from classroom.insights.grids import (
    CarryCell,
    CarryGrid,
    ErrorBreakdown,
    FactCell,
    FluencyGrid,
    carry_grid,
    error_breakdown,
    fluency_grid,
)
from classroom.insights.plays import CardKind, ErrorKind, Play
from classroom.insights.practice import PracticeItem, Weaknesses, practise_next, weaknesses
from classroom.insights.rewards import StarsAndStreak, stars_and_streak
from classroom.insights.summary import (
    PupilSummary,
    SessionCounts,
    SessionPoint,
    Totals,
    Trend,
    pooled_summary,
    pupil_summary,
    session_point,
    session_series,
    summary_from_totals,
    trend,
)
from classroom.insights.tips import parent_tips

__all__ = [
    "CardKind",
    "CarryCell",
    "CarryGrid",
    "ErrorBreakdown",
    "ErrorKind",
    "FactCell",
    "Flag",
    "FluencyGrid",
    "Play",
    "PracticeItem",
    "PupilFocus",
    "PupilSummary",
    "RecentGame",
    "SessionCounts",
    "SessionPoint",
    "StarsAndStreak",
    "Totals",
    "Trend",
    "Weaknesses",
    "carry_grid",
    "error_breakdown",
    "fluency_grid",
    "parent_tips",
    "pooled_summary",
    "practise_next",
    "pupil_focus",
    "pupil_summary",
    "recent_games",
    "rising_mult10",
    "session_point",
    "session_series",
    "stars_and_streak",
    "summary_from_totals",
    "trend",
    "watch_flags",
    "weaknesses",
]
