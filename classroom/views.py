"""Teacher pages: account, classes, pupils, sessions, grouping and tables.

Views stay thin: they authorise through ``classroom.access``, change things
through ``classroom.services`` and read through ``classroom.selectors``.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails

from classroom import access, accounts, selectors, services
from classroom.forms import (
    BOT_LEVEL_LABELS,
    GAME_LABELS,
    BotsForm,
    ClassForm,
    GroupSizeForm,
    OptionsForm,
    PupilEditForm,
    PupilsPasteForm,
    SessionStartForm,
    SignupForm,
)
from classroom.models import ClassSession
from classroom.pictures import AVATARS, avatar_url, picture


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# ------------------------------------------------------------------ helpers
def qr_svg(url: str, *, scale: int = 6) -> str:
    """An inline SVG QR code (segno), dark on light, with a quiet zone."""
    return segno.make(url, error="m").svg_inline(
        scale=scale, border=2, dark="#2d2430", light="#ffffff", omitsize=True
    )


def table_url(table_id: int) -> str:
    try:
        return reverse("cardgames:table", kwargs={"table_id": table_id})
    except NoReverseMatch:
        return f"/table/{table_id}/"


def monitor_url(session_id: int) -> str:
    try:
        return reverse("classroom:monitor", kwargs={"session_id": session_id})
    except NoReverseMatch:
        return f"/teacher/sessions/{session_id}/monitor/"


def join_url(request: HttpRequest) -> str:
    return request.build_absolute_uri(reverse("classroom:join"))


# ------------------------------------------------------------------ account
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("classroom:dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # The same answer whether or not the address has an account: the
        # difference goes by e-mail to the address's owner only.
        accounts.teacher_signup(
            request=request,
            email=data["email"],
            password=data["password1"],
            first_name=data["first_name"],
        )
        return render(request, "classroom/teacher/signup_sent.html")
    return render(request, "classroom/teacher/signup.html", {"form": form})


def signup_activate(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The activation link of the sign-up e-mail: opens the account, logs in."""
    user = accounts.teacher_activate(uidb64=uidb64, token=token)
    if user is None:
        messages.error(request, _("Ce lien d'activation ne marche plus. Créez le compte à nouveau."))
        return redirect("classroom:signup")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Bienvenue ! Créez votre première classe."))
    return redirect("classroom:dashboard")


# ------------------------------------------------------------------ classes
@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "classroom/teacher/dashboard.html",
        {
            "classes": selectors.teacher_classes(teacher=request.user),
            "open_sessions": selectors.teacher_open_sessions(teacher=request.user),
        },
    )


@login_required
def class_new(request: HttpRequest) -> HttpResponse:
    form = ClassForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        school_class = services.class_create(
            teacher=request.user, name=form.cleaned_data["name"], level=form.cleaned_data["level"]
        )
        messages.success(request, _("Classe créée. Ajoutez maintenant les prénoms."))
        return redirect("classroom:class_detail", class_id=school_class.pk)
    return render(request, "classroom/teacher/class_form.html", {"form": form})


def class_detail(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = access.access_class(request.user, class_id)
    pupils = list(school_class.pupils.all())
    return render(
        request,
        "classroom/teacher/class_detail.html",
        {
            "school_class": school_class,
            "pupils": [_pupil_row(p) for p in pupils],
            "paste_form": PupilsPasteForm(),
            "open_session": selectors.open_session_of_class(school_class=school_class),
            "past_sessions": school_class.sessions.filter(ended_at__isnull=False)[:10],
        },
    )


def _pupil_row(pupil: Any) -> dict[str, Any]:
    return {
        "pupil": pupil,
        "avatar_url": avatar_url(pupil.avatar),
        "avatar_label": AVATARS.get(pupil.avatar, ""),
        "pictures": [picture(i) for i in pupil.picture_code],
        "locked": services.pupil_is_locked(pupil),
    }


def class_edit(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = access.access_class(request.user, class_id)
    form = ClassForm(request.POST or None, instance=school_class)
    if request.method == "POST" and form.is_valid():
        services.class_update(
            school_class=school_class,
            name=form.cleaned_data["name"],
            level=form.cleaned_data["level"],
        )
        messages.success(request, _("Classe renommée."))
        return redirect("classroom:class_detail", class_id=school_class.pk)
    return render(
        request, "classroom/teacher/class_form.html", {"form": form, "school_class": school_class}
    )


def class_delete(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = access.access_class(request.user, class_id)
    if request.method == "POST":
        services.class_delete(school_class=school_class)
        messages.success(request, _("La classe et toutes ses données ont été supprimées."))
        return redirect("classroom:dashboard")
    return render(
        request,
        "classroom/teacher/confirm_delete.html",
        {
            "title": _("Supprimer la classe « %(name)s » ?") % {"name": school_class.name},
            "explain": _(
                "Les élèves, leurs codes, les séances et toutes les parties seront effacés. "
                "Cette action est définitive."
            ),
            "back": reverse("classroom:class_detail", kwargs={"class_id": school_class.pk}),
        },
    )


def class_cards(request: HttpRequest, class_id: int) -> HttpResponse:
    """Printable login cards: 8 per A4 page, with the long-lived class QR."""
    school_class = access.access_class(request.user, class_id)
    link = request.build_absolute_uri(
        reverse("classroom:class_link", kwargs={"link_token": school_class.link_token})
    )
    qr = qr_svg(link, scale=3)
    cards = [_pupil_row(p) for p in school_class.pupils.all()]
    pages = [cards[i : i + 8] for i in range(0, len(cards), 8)] or [[]]
    return render(
        request,
        "classroom/teacher/cards.html",
        {"school_class": school_class, "pages": pages, "qr": qr, "link": link},
    )


# ------------------------------------------------------------------ pupils
@require_POST
def pupils_add(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = access.access_class(request.user, class_id)
    form = PupilsPasteForm(request.POST)
    if form.is_valid():
        names = services.parse_names(form.cleaned_data["names"])
        created = services.pupils_add(school_class=school_class, names=names)
        renamed = [
            p.display_name for p, raw in zip(created, names, strict=True) if p.display_name != raw
        ]
        messages.success(request, _("%(n)s élève(s) ajouté(s).") % {"n": len(created)})
        if renamed:
            messages.info(
                request,
                _("Prénoms en double, suffixe ajouté (modifiable) : %(names)s")
                % {"names": ", ".join(renamed)},
            )
    else:
        for error in form.errors.get("names", []):
            messages.error(request, error)
    return redirect("classroom:class_detail", class_id=school_class.pk)


def pupil_edit(request: HttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    form = PupilEditForm(
        request.POST or None, initial={"display_name": pupil.display_name, "avatar": pupil.avatar}
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.pupil_update(
                pupil=pupil,
                display_name=form.cleaned_data["display_name"],
                avatar=form.cleaned_data["avatar"],
            )
        except ValidationError as exc:
            form.add_error("display_name", exc)
        else:
            messages.success(request, _("Élève modifié."))
            return redirect("classroom:class_detail", class_id=pupil.school_class_id)
    return render(
        request,
        "classroom/teacher/pupil_form.html",
        {
            "form": form,
            "row": _pupil_row(pupil),
            "avatars": [{"key": k, "label": v, "url": avatar_url(k)} for k, v in AVATARS.items()],
        },
    )


@require_POST
def pupil_regenerate(request: HttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    services.pupil_regenerate_code(pupil=pupil)
    messages.success(
        request,
        _("Nouveau code pour %(name)s : pensez à réimprimer sa carte.")
        % {"name": pupil.display_name},
    )
    return _back(request, reverse("classroom:class_detail", args=[pupil.school_class_id]))


@require_POST
def pupil_unlock(request: HttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    services.pupil_unlock(pupil=pupil)
    messages.success(
        request, _("La carte de %(name)s est débloquée.") % {"name": pupil.display_name}
    )
    return _back(request, reverse("classroom:class_detail", args=[pupil.school_class_id]))


def pupil_delete(request: HttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    back = reverse("classroom:class_detail", args=[pupil.school_class_id])
    if request.method == "POST":
        services.pupil_delete(pupil=pupil)
        messages.success(request, _("L'élève et toutes ses données ont été supprimés."))
        return redirect(back)
    return render(
        request,
        "classroom/teacher/confirm_delete.html",
        {
            "title": _("Supprimer %(name)s ?") % {"name": pupil.display_name},
            "explain": _(
                "Son code et tout ce qui le concerne seront effacés. Cette action est définitive."
            ),
            "back": back,
        },
    )


def _back(request: HttpRequest, default: str) -> HttpResponse:
    """Back to the page the form came from, if it is one of ours (Django's own
    check: no other host or scheme, no ``//evil`` or ``/\\evil`` tricks)."""
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return redirect(target if target and safe else default)


# ------------------------------------------------------------------ sessions
def session_new(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = access.access_class(request.user, class_id)
    start_form = SessionStartForm(request.POST or None)
    game = request.POST.get("game") if request.method == "POST" else "chasse"
    if game not in dict(start_form.fields["game"].choices):
        game = "chasse"
    options_form = OptionsForm(request.POST or None, game=game)
    if request.method == "POST" and start_form.is_valid() and options_form.is_valid():
        class_session = services.session_start(
            school_class=school_class,
            game=start_form.cleaned_data["game"],
            options=options_form.options,
        )
        messages.success(request, _("Séance ouverte. Montrez le code au tableau !"))
        return redirect("classroom:session_detail", session_id=class_session.pk)
    return render(
        request,
        "classroom/teacher/session_new.html",
        {"school_class": school_class, "start_form": start_form, "options_form": options_form},
    )


def _session_context(request: HttpRequest, class_session: ClassSession) -> dict[str, Any]:
    return {
        "class_session": class_session,
        "school_class": class_session.school_class,
        "game_label": GAME_LABELS.get(class_session.game, class_session.game),
        "board": selectors.session_board(class_session=class_session)
        if class_session.is_open
        else None,
        "tablets": selectors.session_tablets(class_session=class_session),
        "locked": selectors.locked_pupils(school_class=class_session.school_class),
        "selected": _selected(request, class_session),
        "bot_levels": BOT_LEVEL_LABELS,
        "monitor_url": monitor_url(class_session.pk),
        "join_url": join_url(request),
    }


def _selected(request: HttpRequest, class_session: ClassSession) -> Any:
    pupil_id = request.GET.get("selected")
    if not pupil_id:
        return None
    try:
        return access.access_session_pupil(class_session, pupil_id)
    except Exception:
        return None


def session_detail(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_session(request.user, session_id)
    return render(
        request, "classroom/teacher/session_detail.html", _session_context(request, class_session)
    )


def session_board(request: HttpRequest, session_id: int) -> HttpResponse:
    """The grouping board alone (htmx swaps it after each tap)."""
    class_session = access.access_open_session(request.user, session_id)
    return render(
        request, "classroom/teacher/_board.html", _session_context(request, class_session)
    )


def _board_response(request: HttpRequest, class_session: ClassSession) -> HttpResponse:
    if getattr(request, "htmx", False):
        return render(
            request, "classroom/teacher/_board.html", _session_context(request, class_session)
        )
    return redirect("classroom:session_detail", session_id=class_session.pk)


def session_options(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_open_session(request.user, session_id)
    form = OptionsForm(
        request.POST or None, game=class_session.game, initial_options=class_session.options
    )
    if request.method == "POST" and form.is_valid():
        services.session_update_options(class_session=class_session, options=form.options)
        messages.success(request, _("Réglages enregistrés pour les prochaines tables."))
        return redirect("classroom:session_detail", session_id=class_session.pk)
    return render(
        request,
        "classroom/teacher/options_form.html",
        {"form": form, "class_session": class_session, "title": _("Réglages de la séance")},
    )


@require_POST
def session_end(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_session(request.user, session_id)
    services.session_end(class_session=class_session)
    messages.success(request, _("Séance terminée : le code ne fonctionne plus."))
    return redirect("classroom:class_detail", class_id=class_session.school_class_id)


def session_projector(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_open_session(request.user, session_id)
    url = join_url(request)
    return render(
        request,
        "classroom/teacher/projector.html",
        {
            "class_session": class_session,
            "join_url": url,
            "qr": qr_svg(f"{url}?code={class_session.join_code}", scale=8),
            "pupils": [
                {"pupil": p, "avatar_url": avatar_url(p.avatar)}
                for p in selectors.joined_pupils(class_session=class_session)
            ],
            "code_groups": [class_session.join_code[:3], class_session.join_code[3:]]
            if class_session.join_code
            else [],
        },
    )


# ------------------------------------------------------------------ grouping
@require_POST
def groups_make(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_open_session(request.user, session_id)
    form = GroupSizeForm(request.POST)
    if form.is_valid():
        services.groups_make(class_session=class_session, size=form.cleaned_data["size"])
    return _board_response(request, class_session)


@require_POST
def group_add(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_open_session(request.user, session_id)
    services.group_add(class_session=class_session)
    return _board_response(request, class_session)


@require_POST
def pupil_move(request: HttpRequest, session_id: int, pupil_id: int) -> HttpResponse:
    """Tap a pupil, then tap the table to put them on (no drag needed)."""
    class_session = access.access_open_session(request.user, session_id)
    pupil = access.access_session_pupil(class_session, pupil_id)
    target = request.POST.get("group", "")
    group = None
    if target:
        group = access.access_group(request.user, target)
    try:
        services.pupil_move(class_session=class_session, pupil=pupil, group=group)
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
    except Exception:
        messages.error(request, _("Cet élève n'a pas encore rejoint la séance."))
    return _board_response(request, class_session)


@require_POST
def group_bots(request: HttpRequest, group_id: int) -> HttpResponse:
    group = access.access_group(request.user, group_id)
    form = BotsForm(request.POST)
    if form.is_valid() and group.table_id is None:
        services.group_set_bots(
            group=group, level=form.cleaned_data["level"], size=form.cleaned_data["size"]
        )
    return _board_response(request, group.class_session)


def group_options(request: HttpRequest, group_id: int) -> HttpResponse:
    group = access.access_group(request.user, group_id)
    class_session = group.class_session
    form = OptionsForm(
        request.POST or None, game=class_session.game, initial_options=services.group_options(group)
    )
    if request.method == "POST" and group.table_id is None and form.is_valid():
        services.group_set_options(group=group, options=form.options)
        messages.success(
            request, _("Réglages de la table %(n)s enregistrés.") % {"n": group.number}
        )
        return redirect("classroom:session_detail", session_id=class_session.pk)
    return render(
        request,
        "classroom/teacher/options_form.html",
        {
            "form": form,
            "class_session": class_session,
            "title": _("Réglages de la table %(n)s") % {"n": group.number},
            "started": group.table_id is not None,
        },
    )


@require_POST
def tables_start(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_open_session(request.user, session_id)
    report = services.tables_start(class_session=class_session)
    if report.started:
        messages.success(request, _("%(n)s table(s) lancée(s) !") % {"n": len(report.started)})
    for problem in report.problems:
        messages.error(request, problem)
    if not report.started and not report.problems:
        messages.info(request, _("Aucune table prête : formez d'abord des groupes."))
    return redirect("classroom:session_detail", session_id=class_session.pk)


@require_POST
def tablet_sign_out(request: HttpRequest, login_id: int) -> HttpResponse:
    login_row = access.access_login(request.user, login_id)
    name = login_row.pupil.display_name
    services.tablet_sign_out(login=login_row)
    messages.success(request, _("La tablette de %(name)s est déconnectée.") % {"name": name})
    return redirect("classroom:session_detail", session_id=login_row.class_session_id)
