"""Forms of the classroom. Every label and message goes through gettext."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from cardgames import engines, ui
from cardgames.ui import bot_level_choices, game_title
from classroom.games import DEFAULT_GAME
from classroom.models import Level, SchoolClass
from classroom.names import name_clean
from classroom.pictures import AVATARS


class SignupForm(forms.Form):
    """The sign-up page asks no password: one typed here could be an
    attacker's, waiting in the account for its owner to activate it (issue 44).
    The owner chooses it on the page the mailed link opens (``ActivationForm``),
    so a teacher types it once, where it counts."""

    email = forms.EmailField(
        label=_("Adresse e-mail"), widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    first_name = forms.CharField(
        label=_("Prénom (affiché aux élèves)"), max_length=60, required=False
    )

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip().lower()
        return email

    def clean_first_name(self) -> str:
        raw = str(self.cleaned_data.get("first_name") or "")
        return name_clean(raw, max_length=60) if raw.strip() else ""


class EmailAuthenticationForm(AuthenticationForm):
    """Teachers log in with their e-mail address (stored as the username)."""

    username = forms.CharField(
        label=_("Adresse e-mail"),
        widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"}),
    )

    # Django's own message names the model's field, "nom d'utilisateur": the
    # teacher typed an e-mail address.
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "Adresse e-mail ou mot de passe incorrect. Attention aux majuscules dans le mot de passe."
        ),
    }

    def clean_username(self) -> str:
        return str(self.cleaned_data["username"]).strip().lower()


class ClassForm(forms.ModelForm):
    class Meta:
        model = SchoolClass
        fields = [
            "name",
            "level",
            "language",
            "read_aloud",
            "practice_allowed",
            "practice_from",
            "practice_until",
        ]
        labels = {
            "name": _("Nom de la classe"),
            "level": _("Niveau"),
            "language": _("Langue des tablettes et des lettres aux parents"),
            "read_aloud": _("Lire à voix haute automatiquement"),
            "practice_allowed": _("Entraînement libre"),
            "practice_from": _("Entraînement à partir de (facultatif)"),
            "practice_until": _("Entraînement jusqu'à (facultatif)"),
        }
        help_texts = {
            "read_aloud": _(
                "Les tablettes disent à voix haute à qui c'est le tour et si le calcul "
                "était juste, dès que cela change. Jamais sur le projecteur. Chaque "
                "consigne a aussi son bouton « Écouter »."
            ),
            "practice_allowed": _(
                "Quand aucune séance n'est ouverte, les élèves peuvent jouer seuls contre "
                "des robots avec le lien ou le QR code de la classe."
            )
        }
        widgets = {
            "level": forms.RadioSelect,
            "language": forms.RadioSelect,
            "practice_from": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "practice_until": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = Level.choices

    def clean_name(self) -> str:
        return name_clean(str(self.cleaned_data["name"]), max_length=80)


class ClassNewForm(ClassForm):
    """The first class in one form (issue 48): its name, its level and the
    pupils' first names. The language and solo practice wait on the class's
    edit page: six fields with the button below the screen held up a
    newcomer's first lesson, and their defaults (each tablet's own language,
    no practice) are right for it."""

    names = forms.CharField(
        label=_("Prénoms des élèves, un par ligne"),
        help_text=_(
            "Un prénom ou un pseudonyme par ligne ; jamais de nom de famille. "
            "Vous pourrez en ajouter plus tard."
        ),
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "Léo\nInès\nMaël"}),
        max_length=5000,
        required=False,
    )

    class Meta(ClassForm.Meta):
        fields = ["name", "level"]

    def clean_names(self) -> str:
        """Cleaned as the class page's paste box cleans them (one message
        names every refused line), but an empty box is allowed."""
        raw = str(self.cleaned_data.get("names") or "")
        if not raw.strip():
            return ""
        paste = PupilsPasteForm({"names": raw})
        if not paste.is_valid():
            raise forms.ValidationError(paste.errors["names"])
        return str(paste.cleaned_data["names"])


class PupilsPasteForm(forms.Form):
    names = forms.CharField(
        label=_("Prénoms, un par ligne"),
        help_text=_("Un prénom ou un pseudonyme par ligne ; jamais de nom de famille."),
        widget=forms.Textarea(attrs={"rows": 8, "placeholder": "Léo\nInès\nMaël"}),
        max_length=5000,
    )

    def clean_names(self) -> str:
        """Each line cleaned like any name (NFC, no invisible character); the
        lines refused are named in one message, so nothing is half-added."""
        cleaned, refused = [], []
        for number, line in enumerate(str(self.cleaned_data["names"]).splitlines(), 1):
            if not line.strip():
                continue
            try:
                cleaned.append(name_clean(line, max_length=36))
            except forms.ValidationError as exc:
                refused.append(_("ligne %(n)s : %(why)s") % {"n": number, "why": " ".join(exc.messages)})
        if refused:
            raise forms.ValidationError(refused)
        if not cleaned:
            raise forms.ValidationError(_("Collez au moins un prénom, un par ligne."))
        return "\n".join(cleaned)


class PupilEditForm(forms.Form):
    display_name = forms.CharField(label=_("Prénom ou pseudonyme"), max_length=40)
    avatar = forms.ChoiceField(label=_("Animal"), choices=[(k, v) for k, v in AVATARS.items()])

    def clean_display_name(self) -> str:
        return name_clean(str(self.cleaned_data["display_name"]), max_length=40)


class SessionStartForm(forms.Form):
    game = forms.ChoiceField(label=_("Jeu"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(name, ui.game_title(name)) for name in offered_games()]
        self.fields["game"].initial = DEFAULT_GAME


def offered_games() -> list[str]:
    """Every game a teacher may start: every engine, the central one
    (``classroom.games.DEFAULT_GAME``, also chosen by default) first."""
    names = engines.names()
    return sorted(names, key=lambda name: (name != DEFAULT_GAME, name))


def game_cards(selected: str) -> list[dict[str, Any]]:
    """What the session form shows of each game: title, one-line pitch, icon
    (a picture or an emoji) and player range, all from the game's UI module
    (``cardgames.ui.get``) and engine."""
    cards = []
    for name in offered_games():
        adapter = ui.get(name)
        engine = engines.get(name)
        icon = str(adapter.icon or "")
        cards.append(
            {
                "name": name,
                "title": ui.game_title(name),
                "pitch": str(adapter.pitch or ""),
                "icon_src": icon if "/" in icon else "",
                "icon_emoji": "" if "/" in icon else icon,
                "min_players": engine.min_players,
                "max_players": engine.max_players,
                "selected": name == selected,
            }
        )
    return cards


def option_labels(game: str) -> tuple[Any, Any]:
    """The teacher's words for the game's options (its adapter, ``cardgames.ui.get``)."""
    adapter = ui.get(game)
    return adapter.option_labels, adapter.choice_labels


class OptionsForm(forms.Form):
    """Built from ``engine.option_schema()``; ``clean`` asks the engine's
    ``validate_options`` so its rules (a deck too small…) show as a message."""

    def __init__(
        self,
        *args: Any,
        game: str,
        initial_options: dict[str, Any] | None = None,
        targeted: bool | None = None,
        **kwargs: Any,
    ):
        """``targeted``: also offer "cartes ciblées pour chaque table" (a
        session's setting, not a table's), checked when ``True``."""
        super().__init__(*args, **kwargs)
        self.engine = engines.get(game)
        labels, choice_labels = option_labels(game)
        values = {**self.engine.default_options(), **(initial_options or {})}
        for spec in self.engine.option_schema():
            key = spec["key"]
            text = labels.get(key, {})
            common = {"label": text.get("label", key), "help_text": text.get("help", "")}
            kind = spec["type"]
            field: forms.Field
            if kind == "bool":
                field = forms.BooleanField(required=False, **common)
            elif kind == "int":
                attrs = {"inputmode": "numeric"}
                if spec.get("step"):
                    attrs["step"] = str(spec["step"])
                field = forms.IntegerField(
                    required=not spec.get("nullable"),
                    min_value=spec.get("min"),
                    max_value=spec.get("max"),
                    widget=forms.NumberInput(attrs=attrs),
                    **common,
                )
            elif kind == "choice":
                names = choice_labels.get(key, {})
                field = forms.ChoiceField(
                    choices=[(c, names.get(c, c)) for c in spec["choices"]],
                    widget=forms.RadioSelect,
                    **common,
                )
            elif kind == "int_set":
                field = forms.TypedMultipleChoiceField(
                    coerce=int,
                    choices=[(i, str(i)) for i in range(spec["min"], spec["max"] + 1)],
                    widget=forms.CheckboxSelectMultiple(attrs={"class": "chips"}),
                    **common,
                )
            else:  # pragma: no cover - an engine with a new option type
                continue
            field.initial = values.get(key)
            self.fields[key] = field
        if targeted is not None and ui.get(game).targeted_cards:
            self.fields["targeted_cards"] = forms.BooleanField(
                required=False,
                initial=targeted,
                label=_("Cartes ciblées pour chaque table"),
                help_text=_(
                    "Chaque élève reçoit plus souvent les cartes des calculs qu'il doit "
                    "travailler, d'après ses parties. Les robots piochent normalement."
                ),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self.options = self.engine.validate_options(
                {k: data.get(k) for k in self.fields if k != "targeted_cards"}
            )
            self.targeted_cards = bool(data.get("targeted_cards"))
        except ValueError as exc:
            raise forms.ValidationError(
                _("Ces réglages ne conviennent pas : %(reason)s"), params={"reason": str(exc)}
            ) from exc
        return data


class GroupSizeForm(forms.Form):
    """ "Groupes de N" and the board's robot level sent with it (absent: the
    session's level stays)."""

    size = forms.IntegerField(min_value=1, max_value=10)
    robots = forms.CharField(required=False, max_length=8, empty_value=None)

    def clean_robots(self) -> str | None:
        # An absent field keeps the session's level; "" chooses no robot.
        return None if "robots" not in self.data else str(self.cleaned_data["robots"] or "")


class BotsForm(forms.Form):
    level = forms.ChoiceField(
        label=_("Robots"),
        required=False,
        choices=lambda: [("", _("Pas de robot")), *bot_level_choices()],
    )
    size = forms.IntegerField(label=_("Places"), min_value=1, max_value=10)


class ReportFilterForm(forms.Form):
    """The period of the class report: a date range, or one session."""

    date_from = forms.DateField(
        label=gettext_lazy("Du"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=gettext_lazy("Au"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    session = forms.TypedChoiceField(
        label=gettext_lazy("ou une séance"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args: Any, sessions: Iterable[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tz = timezone.get_current_timezone()
        self.fields["session"].choices = [("", _("Toutes les séances de la période"))] + [
            # The game too: two sessions of one morning read alike by time alone.
            (
                s.pk,
                f"{date_format(s.started_at.astimezone(tz), 'SHORT_DATETIME_FORMAT')}"
                f" · {game_title(s.game)}",
            )
            for s in sessions
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("La date de fin doit suivre la date de début."))
        return data


EXPIRY_CHOICES = (
    (30, gettext_lazy("1 mois")),
    (90, gettext_lazy("3 mois")),
    (365, gettext_lazy("1 an")),
)


class ParentLinkForm(forms.Form):
    expires_in_days = forms.TypedChoiceField(
        label=gettext_lazy("Valable"), choices=EXPIRY_CHOICES, coerce=int, initial=365
    )


class ActivationForm(forms.Form):
    """The page the activation link opens: the address's owner, proved by the
    link, chooses the password there and confirms the first name typed at
    sign-up (the last sign-up's, which may not have been theirs).

    ``PASSWORD_RULES_ID`` names the list of rules the page shows before the
    first try, and each password box points at it for screen readers."""

    PASSWORD_RULES_ID = "password-rules"
    # The passwords first: the first name is already filled in, and the boxes
    # to type into must be on the first screen (issue 48).
    field_order = ["password1", "password2", "first_name"]

    first_name = forms.CharField(
        label=_("Prénom (affiché aux élèves)"), max_length=60, required=False
    )
    password1 = forms.CharField(
        label=_("Choisissez votre mot de passe"),
        strip=False,
        widget=forms.PasswordInput(
            attrs={"autocomplete": "new-password", "aria-describedby": PASSWORD_RULES_ID}
        ),
    )
    password2 = forms.CharField(
        label=_("Le même mot de passe, encore une fois"),
        strip=False,
        widget=forms.PasswordInput(
            attrs={"autocomplete": "new-password", "aria-describedby": PASSWORD_RULES_ID}
        ),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["first_name"].initial = user.first_name

    @property
    def password_rules(self) -> list[str]:
        """Django's validators' own rules, translated by Django."""
        return list(password_validation.password_validators_help_texts())

    def clean_first_name(self) -> str:
        raw = str(self.cleaned_data.get("first_name") or "")
        return name_clean(raw, max_length=60) if raw.strip() else ""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        p1, p2 = data.get("password1"), data.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", _("Les deux mots de passe ne sont pas identiques."))
        elif p1:
            try:
                password_validation.validate_password(p1, self.user)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return data
