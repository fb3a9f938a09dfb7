"""Teacher pages: account, classes and pupils. Thin: ``classroom.access``
authorises, ``classroom.services`` changes, ``classroom.selectors`` reads."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from cardgames.names import with_names
from cardgames.views import HtmxHttpRequest
from classroom import access, accounts, selectors, services
from classroom.auth_backends import DRAFT_BACKEND, is_draft
from classroom.forms import (
    ActivationForm,
    ClassForm,
    ClassNewForm,
    PupilEditForm,
    PupilsPasteForm,
    SignupForm,
)
from classroom.names import by_name
from classroom.pictures import AVATARS, avatar_url, picture
from classroom.views.common import (
    qr_svg,
)


def signup(request: HttpRequest) -> HttpResponse:
    """Ask only the address and a first name, then let the new teacher go on
    at once with a draft account (issue 48): classes and sessions can be
    prepared, and pupils get in once the mailed link has proved the address
    (the password is chosen there, by its owner: issue 44)."""
    if request.user.is_authenticated:
        return redirect("classroom:dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # The same answer whether or not the address has an account, and
        # whether or not its mails for the hour are spent: the difference goes
        # by e-mail to the address's owner only.
        draft = accounts.teacher_signup(
            request=request, email=data["email"], first_name=data["first_name"]
        )
        if draft is not None:
            login(request, draft, backend=DRAFT_BACKEND)
            return redirect("classroom:dashboard")
        # This network made many drafts this hour: the mail part only.
        # "Renvoyer l'e-mail" posts the same two fields again; the page echoes
        # only what this browser just typed.
        resend = {"email": data["email"], "first_name": data["first_name"]}
        return render(request, "classroom/teacher/signup_sent.html", {"resend": resend})
    return render(request, "classroom/teacher/signup.html", {"form": form})


@require_POST
@login_required
def signup_resend(request: HtmxHttpRequest) -> HttpResponse:
    """"Renvoyer l'e-mail" on a draft's pages; the same message whether or not
    a mail left (the budget is the address's, and says nothing here)."""
    if is_draft(request.user):
        accounts.teacher_mail_resend(request=request, draft=request.user)
        messages.info(
            request,
            _(
                "Un nouvel e-mail est en route. Rien après quelques minutes ? Regardez "
                "dans les indésirables (spam), et vérifiez l'adresse."
            ),
        )
    return _back(request, reverse("classroom:dashboard"))


def _link_dead(request: HttpRequest) -> HttpResponse:
    messages.error(
        request,
        _(
            "Ce lien d'activation ne marche plus (déjà utilisé, remplacé par un plus "
            "récent ou trop ancien). Inscrivez-vous à nouveau pour en recevoir un autre."
        ),
    )
    return redirect("classroom:signup")


def signup_activate(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The activation link of the sign-up e-mail: its owner chooses a password,
    and only then is the account opened and logged in, with whatever its
    draft already holds. Opening the link alone changes nothing, so a mail
    scanner that fetches it spends nothing."""
    user = accounts.teacher_pending(uidb64=uidb64, token=token)
    if user is None:
        return _link_dead(request)
    form = ActivationForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # Read before the password changes: the change signs the draft out.
        had_draft = request.user.is_authenticated and request.user.pk == user.pk
        if not accounts.teacher_activate(
            user=user, password=data["password1"], first_name=data["first_name"]
        ):
            return _link_dead(request)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if had_draft:
            messages.success(
                request, _("Adresse confirmée : vos élèves peuvent maintenant rejoindre vos séances.")
            )
            # Back to the lesson the draft prepared, where the code now shows.
            lesson = selectors.teacher_open_sessions(teacher=user).order_by("-started_at").first()
            if lesson is not None:
                return redirect("classroom:session_detail", session_id=lesson.pk)
        else:
            messages.success(request, _("Bienvenue ! Créez votre première classe."))
        return redirect("classroom:dashboard")
    return render(
        request, "classroom/teacher/signup_activate.html", {"form": form, "email": user.email}
    )


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
    """The class and its pupils in one form (issue 48); then straight to the
    pupils' cards to print, which lead on to a session. Language and solo
    practice keep their defaults until the class's edit page changes them."""
    form = ClassNewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        school_class = services.class_create(
            teacher=request.user, name=form.cleaned_data["name"], level=form.cleaned_data["level"]
        )
        names = services.parse_names(form.cleaned_data["names"])
        if not names:
            messages.success(request, _("Classe créée. Ajoutez maintenant les prénoms."))
            return redirect("classroom:class_detail", class_id=school_class.pk)
        created = services.pupils_add(school_class=school_class, names=names)
        n = len(created)
        messages.success(
            request,
            ngettext(
                "Classe créée avec %(n)s élève. Imprimez sa carte, puis ouvrez une séance.",
                "Classe créée avec %(n)s élèves. Imprimez leurs cartes, puis ouvrez une séance.",
                n,
            )
            % {"n": n},
        )
        return redirect("classroom:class_cards", class_id=school_class.pk)
    return render(request, "classroom/teacher/class_form.html", {"form": form})


def class_detail(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = access.access_class(request.user, class_id)
    pupils = by_name(school_class.pupils.all(), lambda p: p.display_name)
    rows = [_pupil_row(p) for p in pupils]
    return render(
        request,
        "classroom/teacher/class_detail.html",
        {
            "school_class": school_class,
            "pupils": rows,
            # "Cartes attaquées": locked or guessed at lately, unlocked in one click.
            "attacked_count": sum(1 for row in rows if row["attacked"] or row["locked"]),
            "locked_count": sum(1 for row in rows if row["locked"]),
            "paste_form": PupilsPasteForm(),
            "open_session": selectors.open_session_of_class(school_class=school_class),
            # Lessons only: a pupil's solo practice is not a lesson of the class.
            "past_sessions": school_class.sessions.filter(ended_at__isnull=False, practice=False)[
                :10
            ],
        },
    )


def _pupil_row(pupil: Any) -> dict[str, Any]:
    return {
        "pupil": pupil,
        "avatar_url": avatar_url(pupil.avatar),
        "avatar_label": AVATARS.get(pupil.avatar, ""),
        "pictures": [picture(i) for i in pupil.picture_code],
        "locked": services.pupil_is_locked(pupil),
        "attacked": services.pupil_recently_attacked(pupil),
        "wrong_codes": services.pupil_attack_count(pupil),
    }


def class_edit(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = access.access_class(request.user, class_id)
    form = ClassForm(request.POST or None, instance=school_class)
    if request.method == "POST" and form.is_valid():
        services.class_update(
            school_class=school_class,
            name=form.cleaned_data["name"],
            level=form.cleaned_data["level"],
            language=form.cleaned_data["language"],
            read_aloud=form.cleaned_data["read_aloud"],
            **_practice(form),
        )
        messages.success(request, _("Classe enregistrée."))
        return redirect("classroom:class_detail", class_id=school_class.pk)
    return render(
        request, "classroom/teacher/class_form.html", {"form": form, "school_class": school_class}
    )


def _practice(form: ClassForm) -> dict[str, Any]:
    return {k: form.cleaned_data.get(k) for k in ("practice_allowed", "practice_from", "practice_until")}


@require_POST
def class_link_rotate(request: HttpRequest, class_id: int) -> HttpResponse:
    """A new class link: the printed cards stop working, new ones must be printed."""
    school_class = access.access_class(request.user, class_id)
    services.class_link_rotate(school_class=school_class)
    messages.success(
        request, _("Nouveau lien de classe : les anciennes cartes ne marchent plus, imprimez les nouvelles.")
    )
    return redirect("classroom:class_cards", class_id=school_class.pk)


def class_delete(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = access.access_class(request.user, class_id)
    if request.method == "POST":
        services.class_delete(school_class=school_class)
        messages.success(request, _("La classe et toutes ses données ont été supprimées."))
        return redirect("classroom:dashboard")
    return _confirm_delete(
        request,
        title=_("Supprimer la classe « %(name)s » ?") % {"name": school_class.name},
        explain=_(
            "Les élèves, leurs codes, les séances et toutes les parties seront effacés. "
            "Cette action est définitive."
        ),
        back=reverse("classroom:class_detail", kwargs={"class_id": school_class.pk}),
    )


def class_cards(request: HttpRequest, class_id: int) -> HttpResponse:
    """Printable login cards: 8 per A4 page, with the long-lived class QR."""
    school_class = access.access_class(request.user, class_id)
    link = request.build_absolute_uri(
        reverse("classroom:class_link", kwargs={"link_token": school_class.link_token})
    )
    qr = qr_svg(link, scale=3)
    cards = [_pupil_row(p) for p in by_name(school_class.pupils.all(), lambda p: p.display_name)]
    pages = [cards[i : i + 8] for i in range(0, len(cards), 8)] or [[]]
    return render(
        request,
        "classroom/teacher/cards.html",
        {"school_class": school_class, "pages": pages, "qr": qr, "link": link},
    )


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
        n = len(created)
        messages.success(
            request, ngettext("%(n)s élève ajouté.", "%(n)s élèves ajoutés.", n) % {"n": n}
        )
        if renamed:
            messages.info(
                request,
                _("Prénoms en double, suffixe ajouté (modifiable) : %(names)s")
                % {"names": ", ".join(renamed)},
            )
        cut = services.names_cut(str(form.data.get("names", "")))
        if cut:
            messages.info(
                request,
                _("Prénoms trop longs, raccourcis à %(n)s caractères (modifiables) : %(names)s")
                % {"n": services.PASTED_NAME_MAX, "names": ", ".join(cut)},
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
def pupil_regenerate(request: HtmxHttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    services.pupil_regenerate_code(pupil=pupil)
    messages.success(
        request,
        _("Nouveau code pour %(name)s : pensez à réimprimer sa carte.")
        % {"name": pupil.display_name},
    )
    return _back(request, reverse("classroom:class_detail", args=[pupil.school_class_id]))


@require_POST
def pupil_unlock(request: HtmxHttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    services.pupil_unlock(pupil=pupil)
    messages.success(
        request, with_names(_("La carte de %(name)s est débloquée."), name=pupil.display_name)
    )
    return _back(request, reverse("classroom:class_detail", args=[pupil.school_class_id]))


def pupil_delete(request: HttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    back = reverse("classroom:class_detail", args=[pupil.school_class_id])
    if request.method == "POST":
        services.pupil_delete(pupil=pupil)
        messages.success(request, _("L'élève et toutes ses données ont été supprimés."))
        return redirect(back)
    explain = _("Son code et tout ce qui le concerne seront effacés. Cette action est définitive.")
    title = _("Supprimer %(name)s ?") % {"name": pupil.display_name}
    return _confirm_delete(request, title=title, explain=explain, back=back)


def _confirm_delete(request: HttpRequest, *, title: str, explain: str, back: str) -> HttpResponse:
    """The "are you sure?" page before a deletion that cannot be undone."""
    context = {"title": title, "explain": explain, "back": back}
    return render(request, "classroom/teacher/confirm_delete.html", context)


def _back(request: HtmxHttpRequest, default: str) -> HttpResponse:
    """Back to the page the form came from, if it is one of ours (Django's own
    check: no other host or scheme, no ``//evil`` or ``/\\evil`` tricks). A
    form posted by htmx (one redrawn live, see ``_locks.html``) is sent there
    by ``HX-Redirect``."""
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    where = target if target and safe else default
    if request.htmx:
        return HttpResponseClientRedirect(where)
    return redirect(where)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, with its mails counted (issue 44, finding 11).

    The budget is spent for every request, whether or not the address has an
    account, and a request over it lands on the same "look at your e-mails"
    page: neither the account nor the spent budget shows."""

    def form_valid(self, form: Any) -> HttpResponse:
        email = str(form.cleaned_data["email"])
        if accounts.account_mail_allowed(email=email, ip=accounts.request_ip(self.request)):
            return super().form_valid(form)
        return HttpResponseRedirect(self.get_success_url())


@require_POST
def pupils_unlock_all(request: HtmxHttpRequest, class_id: int) -> HttpResponse:
    """ "Tout débloquer" under "cartes attaquées": every locked card of the
    class in one click (issue 44, item 3), each left one wrong code from the
    teacher-only lock, so the click gives a guesser nothing to sweep with."""
    school_class = access.access_class(request.user, class_id)
    count = services.pupils_unlock_all(school_class=school_class)
    messages.success(
        request,
        ngettext("%(n)d carte débloquée.", "%(n)d cartes débloquées.", count) % {"n": count},
    )
    return _back(request, reverse("classroom:class_detail", args=[school_class.pk]))
