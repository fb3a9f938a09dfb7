"""Teacher pages: account, classes and pupils. Thin: ``classroom.access``
authorises, ``classroom.services`` changes, ``classroom.selectors`` reads."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from cardgames.names import with_names
from classroom import access, accounts, selectors, services
from classroom.forms import ClassForm, PupilEditForm, PupilsPasteForm, SignupForm
from classroom.pictures import AVATARS, avatar_url, picture
from classroom.views.common import (
    qr_svg,
)


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
            teacher=request.user,
            name=form.cleaned_data["name"],
            level=form.cleaned_data["level"],
            language=form.cleaned_data["language"],
            **_practice(form),
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
        "attacked": services.pupil_recently_attacked(pupil),
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
    cards = [_pupil_row(p) for p in school_class.pupils.all()]
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


def _back(request: HttpRequest, default: str) -> HttpResponse:
    """Back to the page the form came from, if it is one of ours (Django's own
    check: no other host or scheme, no ``//evil`` or ``/\\evil`` tricks). A
    form posted by htmx (one redrawn live, see ``_locks.html``) is sent there
    by ``HX-Redirect``."""
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    where = target if target and safe else default
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(where)
    return redirect(where)
