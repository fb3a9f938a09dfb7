"""Teacher sign-up that never tells whether an e-mail address has an account.

The sign-up page answers every well-formed request the same way ("look at your
e-mails"), and the difference only reaches the address's owner: a new address
gets an activation link (the account stays inactive until it is opened), an
address that already has an account gets a note with the log-in and
password-reset links. The password is hashed in both cases, so the answer
takes as long either way.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

T = "classroom/teacher/"


def teacher_signup(*, request: HttpRequest, email: str, password: str, first_name: str) -> None:
    """Create an inactive account and mail its activation link, or, when the
    address is taken, mail its owner a note instead. Same answer, same cost."""
    user_model = get_user_model()
    hashed = make_password(password)
    existing = user_model.objects.filter(username__iexact=email).first()
    if existing is None:
        try:
            with transaction.atomic():
                user = user_model.objects.create(
                    username=email,
                    email=email,
                    first_name=first_name,
                    is_active=False,
                    password=hashed,
                )
        except IntegrityError:  # two sign-ups raced for the same address
            existing = user_model.objects.filter(username__iexact=email).first()
        else:
            _send(request, user, "signup_activate", activate=True)
            return
    if existing is not None:
        _send(
            request,
            existing,
            "signup_activate" if not existing.is_active else "signup_exists",
            activate=not existing.is_active,
        )


def _send(request: HttpRequest, user: Any, name: str, *, activate: bool) -> None:
    context: dict[str, Any] = {
        "login_url": request.build_absolute_uri(reverse("classroom:login")),
        "reset_url": request.build_absolute_uri(reverse("classroom:password_reset")),
    }
    if activate:
        context["activate_url"] = request.build_absolute_uri(
            reverse(
                "classroom:signup_activate",
                kwargs={
                    "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                    "token": default_token_generator.make_token(user),
                },
            )
        )
    send_mail(
        _("La Chasse aux Souris : votre compte enseignant·e"),
        render_to_string(T + f"{name}_email.txt", context),
        None,
        [user.email],
    )


def teacher_activate(*, uidb64: str, token: str) -> Any | None:
    """The account the activation link opens, now active; ``None`` for a
    wrong, used or expired link (the token changes once the teacher logs in)."""
    try:
        pk = urlsafe_base64_decode(uidb64).decode()
        user = get_user_model().objects.get(pk=pk)
    except (ValueError, TypeError, OverflowError, get_user_model().DoesNotExist):
        return None
    if not default_token_generator.check_token(user, token):
        return None
    if not user.is_active:
        user.is_active = True
        user.save(update_fields=["is_active"])
    return user
