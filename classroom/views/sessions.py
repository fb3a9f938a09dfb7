"""Teacher pages of a class session: open it, the projector, the grouping
board (htmx swaps it after each tap), tables, tablets."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from cardgames import rendering
from cardgames.models import Table
from cardgames.names import with_names
from cardgames.ui import bot_level_choices, game_title
from cardgames.views import HtmxHttpRequest
from classroom import access, ratelimit, selectors, services
from classroom.forms import (
    DEFAULT_GAME,
    BotsForm,
    GroupSizeForm,
    OptionsForm,
    SessionStartForm,
    game_cards,
)
from classroom.models import (
    Attendance,
    ClassSession,
)
from classroom.pictures import avatar_url
from classroom.selectors.monitor import current_tables, session_tables
from classroom.services.groups import quick_size, session_robots, session_set_robots
from classroom.services.sessions import session_close
from classroom.services.tables import group_release, table_rematch
from classroom.views.common import (
    join_url,
    monitor_url,
    qr_svg,
)


def session_new(request: HtmxHttpRequest, class_id: int) -> HttpResponse:
    """Open a session: the games as cards (title, pitch, icon, players), and the
    chosen game's options, built from its engine's ``option_schema()``. Choosing
    another game swaps the options in place (htmx ``GET ?game=``)."""
    school_class = access.access_class(request.user, class_id)
    start_form = SessionStartForm(request.POST or None)
    offered = dict(start_form.fields["game"].choices)
    game = (request.POST if request.method == "POST" else request.GET).get("game", DEFAULT_GAME)
    if game not in offered:
        game = DEFAULT_GAME
    if request.method == "POST" and request.POST.get("defaults"):
        # "Ouvrir une séance" from the cards page or the dashboard: one click,
        # the game's own defaults (issue 48); the settings stay on the
        # session page's "Réglages" for whoever wants them.
        class_session = services.session_start(school_class=school_class, game=game, options={})
        messages.success(request, _("Séance ouverte. Montrez le code au tableau !"))
        return redirect("classroom:session_detail", session_id=class_session.pk)
    options_form = OptionsForm(request.POST or None, game=game, targeted=False)
    if request.method == "GET" and request.htmx:
        return render(
            request, "classroom/teacher/_game_options.html", {"options_form": options_form, "game": game}
        )
    if request.method == "POST" and start_form.is_valid() and options_form.is_valid():
        class_session = services.session_start(
            school_class=school_class,
            game=start_form.cleaned_data["game"],
            options=options_form.options,
            targeted_cards=options_form.targeted_cards,
        )
        messages.success(request, _("Séance ouverte. Montrez le code au tableau !"))
        return redirect("classroom:session_detail", session_id=class_session.pk)
    return render(
        request,
        "classroom/teacher/session_new.html",
        {
            "school_class": school_class,
            "start_form": start_form,
            "options_form": options_form,
            "games": game_cards(game),
            "game": game,
        },
    )


def _session_context(request: HttpRequest, class_session: ClassSession) -> dict[str, Any]:
    return {
        "class_session": class_session,
        "school_class": class_session.school_class,
        "game_label": game_title(class_session.game),
        "board": selectors.session_board(class_session=class_session)
        if class_session.is_open
        else None,
        "tablets": selectors.session_tablets(class_session=class_session),
        "locked": selectors.locked_pupils(school_class=class_session.school_class),
        "attacked": selectors.attacked_pupils(school_class=class_session.school_class),
        "selected": _selected(request, class_session),
        "bot_levels": bot_level_choices(),
        "robots": session_robots(class_session),
        "quick_size": quick_size(class_session.game),
        "monitor_url": monitor_url(class_session.pk),
        "join_url": join_url(request),
    }


def _selected(request: HttpRequest, class_session: ClassSession) -> Any:
    pupil_id = request.GET.get("selected")
    if not pupil_id:
        return None
    try:
        return access.access_session_pupil(class_session, pupil_id)
    except Http404:
        return None


def _remember_school_network(request: HttpRequest, class_session: Any) -> None:
    """The network the teacher's own page came from is the lesson's home: a
    right join code from it always gets in at once, even when the school's one
    public address is over its wrong-code budget (``classroom.ratelimit``).
    Only a signed-in teacher's page marks it, so a stranger cannot."""
    if class_session.is_open:
        ratelimit.lesson_home_remember(
            class_session_id=class_session.pk,
            net=ratelimit.client_net(str(request.META.get("REMOTE_ADDR", ""))),
        )


def session_detail(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_session(request.user, session_id)
    _remember_school_network(request, class_session)
    return render(
        request, "classroom/teacher/session_detail.html", _session_context(request, class_session)
    )


def session_board(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The grouping board alone (htmx swaps it after each tap). POSTed, it
    carries a finished table's next step: ``rematch`` ("Rejouer": same pupils,
    a new game, their tablets follow) or ``release`` ("Regrouper ces élèves":
    back to the waiting list). Either way the board comes back."""
    class_session = access.access_open_session(request.user, session_id)
    if request.method == "POST":
        _finished_table_next(request, class_session)
        return _board_response(request, class_session)
    return render(
        request, "classroom/teacher/_board.html", _session_context(request, class_session)
    )


def _finished_table_next(request: HttpRequest, class_session: ClassSession) -> None:
    """Rejouer or regroup one finished table of this session (any other group:
    the one 404)."""
    group = access.access_group(request.user, request.POST.get("group", ""))
    if group.class_session_id != class_session.pk or group.table is None:
        raise Http404(access.NOT_FOUND)
    if group.table.status != Table.Status.FINISHED:
        messages.error(request, _("Cette table n'a pas fini sa partie."))
    elif request.POST.get("next") == "rematch":
        try:
            table_rematch(table=group.table)
        except ValidationError as exc:
            messages.error(request, exc.messages[0])
        else:
            messages.success(
                request, _("Table %(n)s : nouvelle partie lancée.") % {"n": group.number}
            )
    elif request.POST.get("next") == "release":
        try:
            group_release(group=group)
        except ValidationError as exc:
            messages.error(request, exc.messages[0])


def _board_response(request: HtmxHttpRequest, class_session: ClassSession) -> HttpResponse:
    if request.htmx:
        return render(
            request, "classroom/teacher/_board.html", _session_context(request, class_session)
        )
    return redirect("classroom:session_detail", session_id=class_session.pk)


def session_options(request: HttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_open_session(request.user, session_id)
    form = OptionsForm(
        request.POST or None,
        game=class_session.game,
        initial_options=class_session.options,
        targeted=class_session.targeted_cards,
    )
    if request.method == "POST" and form.is_valid():
        services.session_update_options(
            class_session=class_session,
            options=form.options,
            targeted_cards=form.targeted_cards,
        )
        messages.success(request, _("Réglages enregistrés pour les prochaines tables."))
        return redirect("classroom:session_detail", session_id=class_session.pk)
    return render(
        request,
        "classroom/teacher/options_form.html",
        {"form": form, "class_session": class_session, "title": _("Réglages de la séance")},
    )


def session_end(request: HttpRequest, session_id: int) -> HttpResponse:
    """Two steps, so one stray tap never ends a lesson: GET asks (saying how
    many tables and tablets it stops), POST ends everything the way the
    monitor does: the tables end and every tablet is told the lesson is over.
    A confirmation page rather than a script: it works under a strict CSP."""
    class_session = access.access_session(request.user, session_id)
    if request.method == "POST":
        if class_session.is_open:
            session_close(class_session=class_session)
        messages.success(request, _("Séance terminée : le code ne fonctionne plus."))
        return redirect("classroom:class_detail", class_id=class_session.school_class_id)
    if not class_session.is_open:
        return redirect("classroom:session_detail", session_id=class_session.pk)
    return render(
        request,
        "classroom/teacher/session_end_confirm.html",
        {
            "class_session": class_session,
            "school_class": class_session.school_class,
            "tables": sum(
                t.status != Table.Status.FINISHED for t in session_tables(class_session)
            ),
            "tablets": len(selectors.session_tablets(class_session=class_session)),
        },
    )


def _mosaic(class_session: ClassSession) -> list[dict[str, Any]]:
    """The started tables' public views (what any pupil may see: no hand, no
    teacher button), for the session projector once the lesson is under way."""
    mosaic = []
    for table in current_tables(class_session):
        if table.status == Table.Status.WAITING:
            continue
        snap = rendering.snapshot(table.pk)
        if snap is None or snap.state is None:
            continue
        context = rendering.seat_context(snap, None)
        context.update(oob=False, notice="")
        mosaic.append(
            {
                "table": table,
                "html": render_to_string(context["game_template"], context),
                "paused": table.status == Table.Status.PAUSED,
                "finished": table.status == Table.Status.FINISHED,
            }
        )
    return mosaic


def session_projector(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The class's big screen: the join code while pupils arrive, then, once
    tables start, a mosaic of their public views (the code stays in a corner
    for late pupils). The page asks again every few seconds (``hx-trigger``,
    no script); while nothing started the answer is an empty 204, so the
    live list of joined pupils keeps its socket. Once the lesson ends the
    whole class reads "Séance terminée" and a thank-you, and the page stops
    asking (an error page on the class's big screen was the old answer)."""
    class_session = access.access_session(request.user, session_id)
    if not class_session.is_open:
        return render(
            request,
            "classroom/teacher/_projector_stage.html"
            if request.htmx
            else "classroom/teacher/projector.html",
            {"class_session": class_session, "ended": True},
        )
    if not request.htmx:
        _remember_school_network(request, class_session)
    mosaic = _mosaic(class_session)
    if request.htmx and not mosaic:
        return HttpResponse(status=204)
    url = join_url(request)
    context: dict[str, Any] = {
        "class_session": class_session,
        "join_url": url,
        "mosaic": mosaic,
        "code_groups": [class_session.join_code[:3], class_session.join_code[3:]]
        if class_session.join_code
        else [],
    }
    if not mosaic:
        context.update(
            qr=qr_svg(f"{url}?code={class_session.join_code}", scale=8),
            pupils=[
                {"pupil": p, "avatar_url": avatar_url(p.avatar)}
                for p in selectors.joined_pupils(class_session=class_session)
            ],
        )
    template = (
        "classroom/teacher/_projector_stage.html"
        if request.htmx
        else "classroom/teacher/projector.html"
    )
    return render(request, template, context)


@require_POST
def groups_make(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """ "Groupes de N", with the board's robot level; with ``quick`` it is
    "Grouper par 4 et lancer": the tables start at once (one click), and the
    whole page comes back with what started."""
    class_session = access.access_open_session(request.user, session_id)
    data = request.POST.copy()
    start = bool(data.get("quick"))
    if start:  # the "Grouper par 4 et lancer" button names its size as ``quick``
        data["size"] = data["quick"]
    form = GroupSizeForm(data)
    if form.is_valid():
        try:
            services.groups_make(
                class_session=class_session,
                size=form.cleaned_data["size"],
                robots=form.cleaned_data["robots"],
            )
        except ValidationError as exc:
            messages.error(request, exc.messages[0])
        else:
            if start:
                _start_and_say(request, class_session)
                where = reverse("classroom:session_detail", args=[class_session.pk])
                if request.htmx:
                    return HttpResponseClientRedirect(where)
                return redirect(where)
    return _board_response(request, class_session)


@require_POST
def session_robots_set(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The board's one robot control: the level of every table not yet
    started, and of the next groupings."""
    class_session = access.access_open_session(request.user, session_id)
    try:
        session_set_robots(class_session=class_session, robots=str(request.POST.get("robots", "")))
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
    return _board_response(request, class_session)


@require_POST
def group_add(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    class_session = access.access_open_session(request.user, session_id)
    services.group_add(class_session=class_session)
    return _board_response(request, class_session)


@require_POST
def pupil_move(request: HtmxHttpRequest, session_id: int, pupil_id: int) -> HttpResponse:
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
    except Attendance.DoesNotExist:
        messages.error(request, _("Cet élève n'a pas encore rejoint la séance."))
    return _board_response(request, class_session)


@require_POST
def group_bots(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
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
    _start_and_say(request, class_session)
    return redirect("classroom:session_detail", session_id=class_session.pk)


def _start_and_say(request: HttpRequest, class_session: ClassSession) -> None:
    """Start every ready table and tell the teacher how it went."""
    report = services.tables_start(class_session=class_session)
    if report.started:
        n = len(report.started)
        messages.success(
            request, ngettext("%(n)s table lancée !", "%(n)s tables lancées !", n) % {"n": n}
        )
    for problem in report.problems:
        messages.error(request, problem)
    if not report.started and not report.problems:
        messages.info(request, _("Aucune table prête : formez d'abord des groupes."))


@require_POST
def tablet_sign_out(request: HtmxHttpRequest, login_id: int) -> HttpResponse:
    """The button is posted by htmx (its list is redrawn live over a socket,
    where no CSRF token can be drawn: the token travels in the page's
    ``hx-headers``); without JavaScript it is a plain form post."""
    login_row = access.access_login(request.user, login_id)
    name = login_row.pupil.display_name
    services.tablet_sign_out(login=login_row)
    messages.success(request, with_names(_("La tablette de %(name)s est déconnectée."), name=name))
    if request.htmx:
        return HttpResponseClientRedirect(
            reverse("classroom:session_detail", args=[login_row.class_session_id])
        )
    return redirect("classroom:session_detail", session_id=login_row.class_session_id)
