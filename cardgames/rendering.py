"""Draw a table for one seat (or for the public), from the database.

Every live message is built here: a consumer reloads the table and renders
*its own* seat's view (``engine.view(state, seat)`` plus that seat's
``history`` tail). No payload shared between seats ever carries a secret.

A table is read once (``cardgames/snapshot.py``, below the services and this
module) and drawn from that read. A rendered view is a :class:`~cardgames.screen_units.Screen`, cut into the
units a socket is sent one by one when they change (``cardgames/screen_units.py``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cardgames import ui
from cardgames.models import Table
from cardgames.screen_units import Screen

# A screen is drawn from a snapshot: a page that draws one reads it here too.
from cardgames.snapshot import Snapshot as Snapshot
from cardgames.snapshot import snapshot as snapshot
from cardgames.templatetags.table_lines import kept_html, notice_html

LOG_TAIL = 8

# Move nonces (a form's "this tap" token, refused if seen twice) drawn from a
# pool filled 256 at a time: one system call per 256 renders instead of one per
# render (under load each one handed the GIL away).
_NONCES: list[str] = []


def _nonce() -> str:
    try:
        return _NONCES.pop()
    except IndexError:
        pool = secrets.token_hex(8 * 256)
        _NONCES.extend(pool[i : i + 16] for i in range(16, len(pool), 16))
        return pool[:16]


@cache
def _avatar_files() -> frozenset[str]:
    """The avatar pictures that exist, so an unknown avatar falls back to a letter
    rather than a broken image."""
    folder = Path(settings.BASE_DIR) / "static" / "img" / "avatars"
    return frozenset(path.stem for path in folder.glob("*.svg"))


def avatar_url(avatar: str) -> str:
    return static(f"img/avatars/{avatar}.svg") if avatar in _avatar_files() else ""


def rematch_url(table: Table) -> str:
    """Where a steering viewer (the teacher) posts "Rejouer": named by the
    ``CARDGAMES_REMATCH_URL_NAME`` setting, since starting a new game at the same
    seats belongs to whoever owns the tables (cardgames knows no classes)."""
    name = getattr(settings, "CARDGAMES_REMATCH_URL_NAME", "")
    if not name:
        return ""
    try:
        return reverse(name, args=[table.pk])
    except NoReverseMatch:
        return ""


def status_message(table: Table, over: bool) -> str:
    if table.status == Table.Status.PAUSED:
        return _("⏸ La partie est en pause. Attends le signal de ton enseignant.")
    if table.status == Table.Status.WAITING:
        return _("⏳ La partie va bientôt commencer.")
    if table.status == Table.Status.FINISHED and not over:
        return _("🏁 Ton enseignant a terminé cette partie.")
    return ""


def seat_context(snap: Snapshot, seat: int | None, *, steer: bool = False) -> dict[str, Any]:
    """Everything the templates need for ``seat`` (``None``: public). ``steer``:
    the viewer runs the table (the teacher), so the end screen offers "Rejouer"."""
    adapter = ui.get(snap.table.game)
    context: dict[str, Any] = {
        "table": snap.table,
        "seat": seat,
        "seats": snap.seats,
        "version": snap.version,
        "started": snap.state is not None,
        "game_template": adapter.seat_template if seat is not None else adapter.public_template,
        "game_script": adapter.script,
        "nonce": _nonce(),
        "log": [],
        "view": {},
        "steer": steer,
        "rematch_url": rematch_url(snap.table) if steer else "",
    }
    if snap.state is None:
        context["status_message"] = status_message(snap.table, False)
        return context
    _game_context(snap, seat, context, adapter)
    return context


def _game_context(snap: Snapshot, seat: int | None, context: dict[str, Any], adapter: Any) -> None:
    """What a started game adds to ``context``: the seat's view and moves, the
    players, the game's own parts (its ``ui`` adapter's) and its log."""
    names = snap.seat_names
    engine = snap.engine
    view = engine.view(snap.state, seat)
    over = bool(view.get("over"))
    playing = snap.table.status == Table.Status.PLAYING
    legal = engine.legal_actions(snap.state, seat) if seat is not None and playing else []
    choice = None
    if seat is not None and 0 <= seat < len(snap.seats):
        pending = snap.seats[seat].pending_choice
        if isinstance(pending, dict) and pending.get("version") == snap.version:
            choice = pending
    history = engine.history(snap.state, seat)
    context.update(
        view=view,
        legal=legal,
        my_turn=bool(legal),
        # A game without turns (everyone plays at once) never says "your turn" aloud.
        turn_based=not engine.simultaneous,
        over=over,
        playing=playing,
        status_message=status_message(snap.table, over),
        current_name=(
            names[view["current_seat"]]
            if isinstance(view.get("current_seat"), int) and 0 <= view["current_seat"] < len(names)
            else ""
        ),
        winners=[names[s] for s in view.get("winners") or [] if 0 <= s < len(names)],
        players=[
            {
                "index": s.index,
                "name": names[number],
                "avatar": s.avatar,
                "avatar_url": "" if s.is_bot else avatar_url(s.avatar),
                "is_bot": s.is_bot,
                "is_me": s.index == seat,
                "is_current": s.index == view.get("current_seat"),
            }
            for number, s in enumerate(snap.seats)
        ],
    )
    game_context = adapter.seat_context(
        view=view, legal=legal, choice=choice, seed=snap.table.seed, version=snap.version
    )
    # What the game adds to each player (its scores, cards in hand...), by seat.
    extras = game_context.pop("player_extras", None) or []
    for player in context["players"]:
        if player["index"] < len(extras):
            player.update(extras[player["index"]])
    context.update(game_context)
    context["scores_shown"] = scores_shown(snap)
    context.update(adapter.events_context(history=history, view=view, seat=seat, seat_names=names))
    if not context.get("log_lines") or not context.get("latest"):
        # The plain log, for a game that draws no log lines of its own (or none
        # yet), and for the spoken notice when there is no newest move to say.
        context["log"] = [
            adapter.describe_event(event, names, snap.table.options)
            for event in reversed(history[-LOG_TAIL:])
        ]
    context["how_to_play"] = how_to_play(snap.table.game)
    # Open by itself until the seat's first move, unless the game says otherwise.
    context.setdefault(
        "how_to_play_open",
        seat is not None and not over and not any(e.get("seat") == seat for e in history),
    )


# After a game that asks each pupil to add up their own score, how
# long a score stays hidden from every screen while its pupil has not answered.
END_ANSWER_SECONDS = 180


def scores_shown(snap: Snapshot) -> frozenset[int]:
    """The seats whose final score any screen may show now: a robot's, a pupil's
    who has answered the end question, and everyone's once the time to answer
    is up. The projector showed "Léo 5 points" while Léo's tablet asked
    "Combien de points as-tu ?": the answer was on the wall."""
    table = snap.table
    finished = table.finished_at
    if finished is not None and (timezone.now() - finished).total_seconds() > END_ANSWER_SECONDS:
        return frozenset(seat.index for seat in snap.seats)
    return frozenset(
        seat.index
        for seat in snap.seats
        if seat.is_bot
        or (isinstance(seat.pending_choice, dict) and isinstance(seat.pending_choice.get("end_answer"), dict))
    )


def how_to_play(game: str) -> list[dict[str, str]]:
    """The game's "how to play" steps, each with a picture (a static file's URL,
    or an emoji drawn as text) and its sentence, translated now (the same for
    every screen of a game in one language: drawn once per worker)."""
    return _how_to_play(game, get_language() or "")


@lru_cache(maxsize=64)
def _how_to_play(game: str, language: str) -> list[dict[str, str]]:
    steps = []
    for picture, text in ui.get(game).how_to_play:
        is_file = "/" in picture
        steps.append(
            {"src": static(picture) if is_file else "", "emoji": "" if is_file else picture, "text": str(text)}
        )
    return steps


def render_fragments(
    snap: Snapshot,
    seat: int | None,
    *,
    notice: str = "",
    oob: bool = True,
    steer: bool = False,
    announce: bool = False,
    shared_parts: dict[tuple[Any, ...], str] | None = None,
) -> str:
    """The seat's whole live area as out-of-band fragments (main, log, notice).
    ``announce``: the table changed since this screen's last render, so the
    notice area (the only live region) says the change once, for screen readers.
    ``shared_parts``: the parts every screen of this snapshot has in common,
    drawn by the first render that needs them (``templatetags/shared.py``)."""
    context = seat_context(snap, seat, steer=steer)
    context.update(
        notice=notice,
        oob=oob,
        announce=announce,
        shared_parts=shared_parts,
        # Read by every {% kept %} block of the screen: asked once here.
        kept_language=get_language(),
    )
    return render_to_string("cardgames/_fragments.html", context)


def render_screen(
    snap: Snapshot,
    seat: int | None,
    *,
    notice: str = "",
    steer: bool = False,
    announce: bool = False,
    shared_parts: dict[tuple[Any, ...], str] | None = None,
) -> Screen:
    return Screen.of(
        render_fragments(
            snap, seat, notice=notice, steer=steer, announce=announce, shared_parts=shared_parts
        ),
        version=snap.version,
        status=str(snap.table.status),
    )


def render_notice(message: str) -> str:
    """Only the notice line: a refusal changes nothing else on the page."""
    return str(notice_html(notice=message, oob=True))


# How long a refusal at least stays on a child's screen whatever the table
# does meanwhile; after that, the next change of the table may clear it (a
# "not your turn" must not outlive the turn it was about). The child's own next
# tap always clears it.
NOTICE_HOLD_SECONDS = 20.0
_NOTICE_OPEN = '<div id="table-notice" '


@dataclass
class HeldNotice:
    """The refusal one socket was last told, kept on its screen.

    A refusal came as the notice line, and the next change of the table (any
    player's move, a robot's, often a moment later) redrew that line without it: a
    child never read "Trop tard : …". The socket keeps it here and every
    screen it is sent shows it again (``notice_keep``) until the child taps
    again (``drop``) or, past ``NOTICE_HOLD_SECONDS``, the table changes."""

    text: str = ""
    since: float = 0.0

    def hold(self, text: str, now: float | None = None) -> None:
        self.text, self.since = text, time.monotonic() if now is None else now

    def drop(self) -> None:
        self.text = ""

    def current(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        if self.text and now - self.since > NOTICE_HOLD_SECONDS:
            self.text = ""
        return self.text


def notice_keep(screen: Screen, message: str) -> Screen:
    """``screen`` with ``message`` shown again in its notice line, as a refusal
    already said (``table_lines.kept_html``). A screen drawn with a notice of
    its own (the answer to the tap that was refused) is left as it is. The
    screen may be shared by other sockets: a new one is returned."""
    unit = screen.units.get("table-notice")
    if not message or unit is None or not unit.startswith(_NOTICE_OPEN) or "cg-notice-text" in unit:
        return screen
    opened = unit.index(">") + 1
    kept = unit[:opened] + kept_html(message) + unit[opened:]
    units = dict(screen.units)
    units["table-notice"] = kept
    return replace(screen, html=screen.html.replace(unit, kept, 1), units=units)


def render_closed(message: str) -> str:
    return render_to_string("cardgames/_closed.html", {"message": message})


def render_moved(table_id: int, *, projector: bool = False) -> str:
    """The game goes on at a new table (someone pressed "Rejouer"): every screen
    of the old one goes there by itself, with a big button should a script fail.
    A projector follows to the new table's projector view, never to the
    teacher's own page (its buttons are not for the class's screen)."""
    view = "cardgames:projector" if projector else "cardgames:table"
    return render_to_string("cardgames/_moved.html", {"url": reverse(view, args=[table_id])})
