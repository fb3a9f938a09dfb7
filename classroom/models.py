"""Teachers, classes, pupils and class sessions.

Children's privacy is a design constraint, not a feature: a pupil is a first
name or pseudonym, an avatar and a picture code. There is no surname, email or
birth date, and deleting a class or a pupil deletes everything about them.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from classroom.games import DEFAULT_GAME
from classroom.keys import pupil_key, session_key

if TYPE_CHECKING:
    from classroom.insights.summary import SessionCounts


class Level(models.TextChoices):
    CP = "CP", "CP"
    CE1 = "CE1", "CE1"
    CE2 = "CE2", "CE2"
    CM1 = "CM1", "CM1"
    CM2 = "CM2", "CM2"


def new_link_token() -> str:
    """A long-lived class link printed on the login cards: 128 bits, URL-safe."""
    return secrets.token_urlsafe(16)


class ClassLanguage(models.TextChoices):
    """The language of a class's tablets and parent letters. Blank: each tablet
    follows its own browser (and a parent's phone its own)."""

    BROWSER = "", _("celle de chaque appareil")
    FR = "fr", "Français"
    DE = "de", "Deutsch"
    EN = "en", "English"


class SchoolClass(models.Model):
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classes"
    )
    name = models.CharField(_("nom"), max_length=80)
    level = models.CharField(_("niveau"), max_length=3, choices=Level.choices, default=Level.CE1)
    # Solo practice through the printed class link: off until the teacher
    # allows it, optionally only between two times of day.
    practice_allowed = models.BooleanField(_("entraînement libre autorisé"), default=False)
    practice_from = models.TimeField(_("entraînement à partir de"), null=True, blank=True)
    practice_until = models.TimeField(_("entraînement jusqu'à"), null=True, blank=True)
    language = models.CharField(
        _("langue des tablettes et des lettres aux parents"),
        max_length=5,
        choices=ClassLanguage.choices,
        default=ClassLanguage.BROWSER,
        blank=True,
    )
    # Issue 50: the tablets say the turn line and the last feedback aloud as
    # they change. Off by default: a room of tablets all speaking at once is
    # the teacher's choice, never a surprise.
    read_aloud = models.BooleanField(_("lire à voix haute automatiquement"), default=False)
    link_token = models.CharField(max_length=32, unique=True, default=new_link_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("classe")
        verbose_name_plural = _("classes")

    def __str__(self) -> str:
        return self.name


class Pupil(models.Model):
    school_class = models.ForeignKey(SchoolClass, on_delete=models.CASCADE, related_name="pupils")
    display_name = models.CharField(_("prénom ou pseudonyme"), max_length=40)
    avatar = models.CharField(_("avatar"), max_length=24)
    # Two picture indexes out of 9, in order, e.g. [3, 7].
    picture_code = models.JSONField(default=list)
    # Wrong picture codes since the last success (or teacher unlock), the
    # escalation step reached (1: 1 min, 2: 5 min, 3: 15 min, 4: teacher only)
    # and when the last wrong code came (the teacher's "recently attacked").
    failed_attempts = models.PositiveSmallIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)
    lock_level = models.PositiveSmallIntegerField(default=0)
    needs_teacher = models.BooleanField(default=False)
    last_failed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["school_class", "display_name"], name="pupil_unique_name_in_class"
            ),
        ]
        verbose_name = _("élève")
        verbose_name_plural = _("élèves")

    def __str__(self) -> str:
        return self.display_name

    @property
    def player_key(self) -> str:
        """How ``cardgames`` names this pupil in a seat (it never sees the model)."""
        return pupil_key(self.pk)


class ClassSession(models.Model):
    """One lesson: a class plays one game, pupils join with a 6-digit code."""

    school_class = models.ForeignKey(SchoolClass, on_delete=models.CASCADE, related_name="sessions")
    game = models.CharField(max_length=32, default=DEFAULT_GAME)
    options = models.JSONField(default=dict, blank=True)
    # Six digits, unique among open sessions; cleared when the session ends.
    join_code = models.CharField(max_length=6, null=True, blank=True)  # noqa: DJ001 - NULL frees the code
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    practice = models.BooleanField(default=False)
    # "Cartes ciblées pour chaque table": each table's deck favours, for each
    # pupil seat, that pupil's own facts (the Chasse ``focus`` option).
    targeted_cards = models.BooleanField(_("cartes ciblées pour chaque table"), default=False)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["join_code"],
                condition=Q(ended_at__isnull=True),
                name="session_unique_open_code",
            ),
        ]
        indexes = [models.Index(fields=["school_class", "started_at"])]

    def __str__(self) -> str:
        # The reader's date order (03/12/2026, 03.12.2026, 12/03/2026).
        day = date_format(timezone.localtime(self.started_at), "SHORT_DATE_FORMAT")
        return f"{self.school_class} · {day}"

    @property
    def game_title(self) -> str:
        """The game's name in the reader's language (lists of past sessions)."""
        from cardgames.ui import game_title

        return game_title(self.game)

    @property
    def is_open(self) -> bool:
        return self.ended_at is None

    @property
    def group_key(self) -> str:
        """The opaque key under which this session's ``cardgames`` tables live."""
        return session_key(self.pk)


class TabletLogin(models.Model):
    """A tablet signed in as a pupil, so the teacher sees who is where and can
    sign a tablet out (a wrong name tapped, a lost tablet)."""

    class_session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="logins")
    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="logins")
    session_key = models.CharField(max_length=64, db_index=True)
    device_label = models.CharField(max_length=80, blank=True)
    logged_in_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-logged_in_at"]

    def __str__(self) -> str:
        return f"{self.pupil} · {self.logged_in_at:%H:%M}"


class Attendance(models.Model):
    """A pupil who joined a class session (the projector's list), and the group
    the teacher put them in. One row per pupil and session, however many
    tablets they used."""

    class_session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="attendances"
    )
    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="attendances")
    group = models.ForeignKey(
        "SessionGroup", on_delete=models.SET_NULL, null=True, blank=True, related_name="members"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["class_session", "pupil"], name="attendance_unique_pupil"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.class_session} · {self.pupil}"


class SessionGroup(models.Model):
    """A table being prepared: the pupils grouped by the teacher, the bots that
    fill the empty seats and the per-table option overrides. Once started it
    points at the ``cardgames`` table that holds the game."""

    class_session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="groups")
    number = models.PositiveSmallIntegerField()
    # Seats wanted at this table: pupils first, then bots when ``bot_level`` is set.
    size = models.PositiveSmallIntegerField(default=4)
    bot_level = models.CharField(max_length=8, blank=True, default="")
    # Only the keys that differ from the session's options.
    options_override = models.JSONField(default=dict, blank=True)
    table = models.OneToOneField(
        "cardgames.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["class_session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["class_session", "number"], name="group_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.class_session} · {self.number}"


class LearningRecord(models.Model):
    """One announcement (or timeout) of a pupil: what the play teaches.

    Written by ``classroom.learning`` from cardgames' ``actions_applied`` signal;
    bots get none. The fields are those of the rule sheet's "What each play
    teaches". ``table_id`` is a plain number, not a foreign key, so purging old
    game tables never rewrites a child's learning history by accident.
    """

    class CardKind(models.TextChoices):
        ADD = "add", _("addition")
        SUB = "sub", _("somme")
        SPECIAL = "special", _("spéciale")

    class ErrorKind(models.TextChoices):
        TENS = "tens", _("dizaines")
        UNITS = "units", _("unités")
        OTHER = "other", _("autre")

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="records")
    class_session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="records"
    )
    table_id = models.BigIntegerField(null=True, blank=True)
    move_version = models.PositiveIntegerField(default=0)
    round = models.PositiveSmallIntegerField(default=1)
    total_before = models.SmallIntegerField()
    card_kind = models.CharField(max_length=8, choices=CardKind.choices)
    card_a = models.SmallIntegerField(null=True, blank=True)
    card_b = models.SmallIntegerField(null=True, blank=True)
    card_value = models.SmallIntegerField()
    total_after = models.SmallIntegerField()
    announced = models.IntegerField(null=True, blank=True)
    # ``None`` when nothing was asked or the turn timed out (left out of accuracy).
    correct = models.BooleanField(null=True, blank=True)
    think_ms = models.PositiveIntegerField(null=True, blank=True)
    compute_ms = models.PositiveIntegerField(null=True, blank=True)
    multiple_of_ten = models.BooleanField(default=False)
    reached_target = models.BooleanField(default=False)
    avoidable = models.BooleanField(default=False)
    crossed_ten = models.BooleanField(default=False)
    # "" when the announcement was right (or nothing was announced).
    error_kind = models.CharField(max_length=8, choices=ErrorKind.choices, default="", blank=True)
    timed_out = models.BooleanField(default=False)
    practice = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            # One record per move: the signal may be delivered twice, the row is not.
            models.UniqueConstraint(
                fields=["table_id", "move_version", "pupil"], name="record_unique_move"
            ),
        ]
        indexes = [
            models.Index(fields=["pupil", "created_at"], name="record_pupil_time"),
            models.Index(fields=["class_session", "pupil"], name="record_session_pupil"),
            models.Index(
                fields=["pupil", "card_kind", "card_a", "card_b"], name="record_pupil_fact"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pupil_id}: {self.total_before} → {self.total_after} ({self.announced})"


# Parents type the printed link: no 0/O/o, 1/l/I/i to mistake for each other,
# lower case only. 31 symbols, 40 of them: 198 bits (at least 192 asked).
PARENT_TOKEN_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
PARENT_TOKEN_LENGTH = 40
PARENT_TOKEN_GROUP = 5


def new_parent_token() -> str:
    """A parent link's secret, in groups of five (``k7m2q-…``) so a parent
    typing it keeps their place; only the SHA-256 of its canonical form (see
    :func:`parent_token_canonical`) is stored."""
    symbols = "".join(secrets.choice(PARENT_TOKEN_ALPHABET) for _ in range(PARENT_TOKEN_LENGTH))
    return "-".join(
        symbols[i : i + PARENT_TOKEN_GROUP]
        for i in range(0, PARENT_TOKEN_LENGTH, PARENT_TOKEN_GROUP)
    )


def parent_token_canonical(token: str) -> str:
    """What is hashed: a token typed in capitals, without its dashes or with
    stray spaces is the same token. Older tokens (URL-safe base64, mixed
    case) are kept exactly as they were issued."""
    squeezed = "".join(token.split()).replace("-", "").lower()
    if squeezed and set(squeezed) <= set(PARENT_TOKEN_ALPHABET):
        return squeezed
    return token


class ParentLink(models.Model):
    """A parent's private link to one child's progress page.

    The database keeps only a hash of the token: a leaked backup opens no page.
    Revoked or expired links answer exactly like a wrong one (404)."""

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="parent_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"parent link for {self.pupil_id}"


class PupilSessionSummary(models.Model):
    """One pupil's figures for one finished class session, kept so the class
    report reads a few thousand small rows instead of every learning record.

    A cache, never the truth: ``classroom.services.summaries`` stores it from
    the learning records of sessions that have ended (counted by the pupil
    page's own rule, ``insights.summary``), ``classroom.selectors`` reads open
    sessions live, and a late record drops the session's rows
    (``services.summaries.summaries_drop``), so they are stored again on the
    next report. The counts are the fields of ``insights.Totals``, by the same
    names. ``compute_ms`` keeps the sorted calculation times of the correct
    answers, so a median over any set of sessions stays exact."""

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="session_summaries")
    class_session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="summaries"
    )
    first_at = models.DateTimeField()
    last_at = models.DateTimeField()
    plays = models.PositiveIntegerField(default=0)
    announcements = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    crossing_announcements = models.PositiveIntegerField(default=0)
    crossing_correct = models.PositiveIntegerField(default=0)
    # Of the crossing ones, the additions (carries); the rest are sommes (borrows).
    add_crossing_announcements = models.PositiveIntegerField(default=0)
    add_crossing_correct = models.PositiveIntegerField(default=0)
    avoidable_mult10 = models.PositiveIntegerField(default=0)
    timeouts = models.PositiveIntegerField(default=0)
    # The timed announcements and their think times summed: a mean over any
    # set of sessions stays exact.
    think_count = models.PositiveIntegerField(default=0)
    think_ms_sum = models.PositiveBigIntegerField(default=0)
    compute_ms = models.JSONField(default=list)

    class Meta:
        ordering = ["first_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["pupil", "class_session"], name="summary_unique_pupil_session"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pupil_id} · {self.class_session_id}"

    @classmethod
    def from_counts(cls, counts: SessionCounts, *, last_at: datetime) -> PupilSessionSummary:
        """The (unsaved) row of one pupil's session counts: each count of
        ``Totals`` in its same-named column."""
        return cls(
            pupil_id=counts.pupil_id,
            class_session_id=counts.class_session_id,
            first_at=counts.first_at,
            last_at=last_at,
            compute_ms=counts.compute_ms,
            **counts.totals._asdict(),
        )


class SocialRecord(models.Model):
    """One pupil at one social-game table (Purrfect, Pinocchio, Picktura):
    participation, never a mark, and never part of the Chasse figures.

    Written by ``classroom.social``: when the game ends, from the engine's own
    ``result`` and ``game_stats`` (the named columns, plus every per-seat figure
    of the game in ``details``); before that, a row may already exist to count
    the moves the engine refused (``wrong_count_accepts``: a Purrfect meow
    misread). Such a row has ``finished_at`` empty and reports leave it out.
    ``table_id`` is a plain number, like ``LearningRecord``'s."""

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="social_records")
    class_session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="social_records"
    )
    table_id = models.BigIntegerField()
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField(default=0)
    trades = models.PositiveIntegerField(default=0)
    offers_withdrawn = models.PositiveIntegerField(default=0)
    mistaken_claims = models.PositiveIntegerField(default=0)
    wrong_count_accepts = models.PositiveIntegerField(default=0)
    # Purrfect's paws, Picktura's points, Pinocchio's noses: the engine's score.
    score = models.IntegerField(default=0)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)
    # Whether the game reached its own end. A table cut short (the lesson
    # ended, "Rejouer" dealt again) still counts as participation, but has no
    # place and no win: its scores were not final.
    completed = models.BooleanField(default=True)
    # Game-specific figures: the engine's per-seat stats and refused-move codes.
    details = models.JSONField(default=dict, blank=True)
    practice = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table_id", "pupil"], name="social_unique_table_pupil"),
        ]
        indexes = [
            models.Index(fields=["pupil", "finished_at"], name="social_pupil_time"),
            models.Index(fields=["class_session", "game"], name="social_session_game"),
        ]

    def __str__(self) -> str:
        return f"{self.pupil_id} · {self.game} · table {self.table_id}"
class AssignedPractice(models.Model):
    """A targeted practice the teacher gave a pupil from the pupil page: the
    facts (and crossing a ten) to target, as the report found them that day.
    It comes first on the pupil's practice screen until a game of it is
    finished (``done_at``); the pupil page then compares the pupil's attempts
    and accuracy on those facts before and after ``assigned_at``."""

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="assignments")
    focus = models.JSONField(default=dict)  # PupilFocus.as_json()
    assigned_at = models.DateTimeField(default=timezone.now)
    # The practice table started for it (a plain number: tables are purged).
    table_id = models.BigIntegerField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-assigned_at", "-id"]
        indexes = [models.Index(fields=["pupil", "done_at"], name="assignment_pupil_open")]

    def __str__(self) -> str:
        return f"{self.pupil_id} · {self.assigned_at:%d/%m/%Y}"


class ScoreSumRecord(models.Model):
    """A pupil adding up their own score after a game (Picktura: "Combien de
    points as-tu ?"): an arithmetic attempt of its own kind, kept apart from
    the Chasse running totals (``LearningRecord``), whose figures it never
    touches.

    Written by ``classroom.score_sums`` from cardgames' ``end_answer_given``.
    ``table_id`` is a plain number, as for ``LearningRecord``. One row per
    pupil and table: the tablet asks once.
    """

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="score_sums")
    class_session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="score_sums"
    )
    table_id = models.BigIntegerField()
    game = models.CharField(max_length=32)
    addends = models.JSONField(default=list)
    sum = models.PositiveSmallIntegerField()
    answer = models.PositiveSmallIntegerField()
    correct = models.BooleanField()
    compute_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table_id", "pupil"], name="score_sum_unique_table"),
        ]
        indexes = [models.Index(fields=["pupil", "created_at"], name="score_sum_pupil_time")]

    def __str__(self) -> str:
        return f"{self.pupil_id}: {'+'.join(map(str, self.addends))} = {self.sum} ({self.answer})"


class RateCounter(models.Model):
    """One abuse counter (wrong join codes of an IP, mails to an address, …)
    that lives until ``expires_at``.

    Why in the database and not the cache: the local-memory cache holds a few
    hundred entries, so a flood of other keys evicted a counter and bought a
    fresh budget; a row is only ever removed once expired (``purge``). Written
    only through ``classroom.services.counters``.
    """

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}={self.count} (until {self.expires_at:%H:%M:%S})"
