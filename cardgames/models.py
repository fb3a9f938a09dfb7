"""What a game table is, in the database.

``cardgames`` knows games, tables and seats, never classes or pupils: a seat
names its player by an opaque ``player_key`` (``"pupil:42"``, ``"bot:hard"``),
plus the name and avatar to draw. The whole game lives in ``GameState.state``
(the engine's ``to_json``), so a table survives a server restart: nothing of a
game lives only in a process's memory.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cardgames.engines.base import BOT_LEVELS, DEFAULT_BOT_LEVEL

BOT_LEVEL_CHOICES = [(level, level) for level in BOT_LEVELS]


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("En attente")
        PLAYING = "playing", _("En cours")
        PAUSED = "paused", _("En pause")
        FINISHED = "finished", _("Terminée")

    game = models.CharField(max_length=32)
    label = models.CharField(max_length=64, blank=True)
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    # An opaque key chosen by whoever created the table (``"session:12"``), so an
    # outer app can find its tables without cardgames knowing that app.
    group_key = models.CharField(max_length=64, blank=True, db_index=True)
    number = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["group_key", "number", "id"]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        """The table's name in the reader's language: a label is stored as its
        untranslated msgid (``gettext_noop``), with ``%(n)s`` for the number."""
        if not self.label:
            return f"{self.game} #{self.pk}"
        title = gettext(self.label)
        return title % {"n": self.number} if "%(n)s" in title else title


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player_key = models.CharField(max_length=64, blank=True, db_index=True)
    display_name = models.CharField(max_length=64)
    avatar = models.CharField(max_length=32, blank=True)
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=8, choices=BOT_LEVEL_CHOICES, default=DEFAULT_BOT_LEVEL)
    # When a socket of this seat last opened or closed. Who is connected *now*
    # is ``SeatConnection`` (one expiring row per open socket).
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # Simultaneous games: when this bot seat should next think (kept in the
    # database so a restarted worker picks the bots up where they were).
    next_think_at = models.DateTimeField(null=True, blank=True)
    # Two-step moves (Chasse: tap a card, then announce): the card chosen and when,
    # so the server can time thinking and computing.
    pending_choice = models.JSONField(null=True, blank=True)
    pending_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.index} · {self.display_name}"


class GameState(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True, related_name="gamestate")
    state = models.JSONField()
    # Bumped by every applied action; a move carries the version it was drawn
    # from, and the save is a compare-and-set on it.
    version = models.PositiveIntegerField(default=0)
    # When the seat now expected to act started its turn (turn timer, think time).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # The ``seq`` the table's next event gets: read with the state under the
    # table lock and moved on by the same compare-and-set, so a move needs no
    # MAX(seq) query to number its events.
    next_seq = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version}"


class GameEvent(models.Model):
    """The append-only log: the game's record and its replay."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=32)
    payload = models.JSONField()
    # ``None``: public. Otherwise the seats that may see it.
    visible_to = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} #{self.seq} {self.kind}"


class Move(models.Model):
    """Every applied action, with its nonce (a replayed nonce is refused) and the
    server-measured timings."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    seat = models.SmallIntegerField()
    version = models.PositiveIntegerField()
    nonce = models.CharField(max_length=64)
    action = models.JSONField()
    by_bot = models.BooleanField(default=False)
    timed_out = models.BooleanField(default=False)
    think_ms = models.PositiveIntegerField(null=True, blank=True)
    compute_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "nonce"], name="move_unique_nonce"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version} seat {self.seat}"


class SeatConnection(models.Model):
    """One open websocket on a seat: the monitor's "connected" dot.

    A row per socket, not a counter: the worker holding the socket pushes
    ``expires_at`` forward on every heartbeat and deletes the row on close. A
    worker that is killed does neither, so its rows simply expire and the seat
    stops showing connected within one time-to-live (a counter would stay high
    forever)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="sockets")
    channel_name = models.CharField(max_length=200, unique=True)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.seat} · {self.channel_name}"
