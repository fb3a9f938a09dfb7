"""Teacher sign-up that never tells whether an e-mail address has an account,
and never keeps a password before the address's owner has proved it is theirs.

Why the password waits for the activation link (issue 44, finding 1): when the
sign-up form stored a password, anyone could sign up with someone else's
address first; the owner later activated the account the attacker held the
password of, created a class, and the attacker logged in and read the
children's names. So the sign-up page asks only the address and a first name;
the account is created inactive with an *unusable* password, and the page the
mailed link opens asks its owner to choose the password. Every new sign-up for
a still-inactive address sets a fresh unusable password: the token hashes the
password, so every earlier activation link dies with it.

The sign-up page answers every well-formed request the same way ("look at your
e-mails"), and the difference only reaches the address's owner: a new or still
inactive address gets an activation link, an address that already has an
account gets a note with the log-in and password-reset links. No path hashes a
password, so the answer takes as long either way.

Mails are counted (finding 11: 40 mails to one address in a minute): per IP,
per address and IP, and per address, sign-ups and password resets together
(``account_mail_allowed``). Over the budget nothing is sent and nothing changes, and the page
says the same as when a mail left: an attacker learns neither that the address
has an account nor that its budget is spent.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from classroom.services.counters import counter_hit

T = "classroom/teacher/"

#: The counting window of account mails, in seconds.
MAIL_WINDOW = 60 * 60


class ActivationTokenGenerator(PasswordResetTokenGenerator):
    """Tokens of activation links, kept apart from password-reset tokens.

    Why a salt of its own: with the shared generator a password-reset link
    opened the activation page and the other way round. ``is_active`` is
    hashed too, so a link dies once its account is open; the password (a
    fresh unusable one at each sign-up) and ``last_login`` already are.
    Links expire after ``PASSWORD_RESET_TIMEOUT`` seconds like reset links."""

    key_salt = "classroom.accounts.ActivationTokenGenerator"

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}"


activation_tokens = ActivationTokenGenerator()


def request_ip(request: HttpRequest) -> str:
    """The client's address as the server saw it (the proxy sets
    ``REMOTE_ADDR``; a client-sent ``X-Forwarded-For`` is never trusted)."""
    return str(request.META.get("REMOTE_ADDR", ""))


def _address_key(email: str) -> str:
    """The counter key of an address: a keyed hash of the lower-cased address,
    so the counters table never holds an e-mail address, and a leaked table
    cannot be matched against a list of addresses without the secret key."""
    digest = salted_hmac("classroom.accounts.mail", email.strip().lower()).hexdigest()
    return f"mail:address:{digest}"


def account_mail_allowed(*, email: str, ip: str) -> bool:
    """Count one account mail for ``email`` and ``ip``; may it be sent?

    Three budgets, so that nobody's mailbox is flooded and nobody can spend
    someone else's mails: per IP (one IP spraying many addresses), per address
    *and* IP (``ACCOUNT_MAILS_PER_ADDRESS_AND_IP_PER_HOUR``: one stranger's
    requests for a teacher's address), and per address from everywhere
    (``ACCOUNT_MAILS_PER_ADDRESS_PER_HOUR``, larger: the mailbox's ceiling).
    A stranger on one IP thus spends only a few of an address's mails and its
    owner still gets a reset link. Each budget is counted only while the ones
    before it allow: a flood spends nothing further down."""
    address = _address_key(email)
    budgets = (
        (f"mail:ip:{ip}", settings.ACCOUNT_MAILS_PER_IP_PER_HOUR),
        (f"{address}:ip:{ip}", settings.ACCOUNT_MAILS_PER_ADDRESS_AND_IP_PER_HOUR),
        (address, settings.ACCOUNT_MAILS_PER_ADDRESS_PER_HOUR),
    )
    return all(counter_hit(key=key, window=MAIL_WINDOW) <= limit for key, limit in budgets)


def teacher_signup(*, request: HttpRequest, email: str, first_name: str) -> None:
    """Create (or renew) an inactive account without a usable password and
    mail its activation link, or, when the address has an open account, mail
    its owner a note instead. Same answer, same cost; nothing at all happens
    once the address or the IP has had its mails for the hour."""
    if not account_mail_allowed(email=email, ip=request_ip(request)):
        return
    user_model = get_user_model()
    existing = user_model.objects.filter(username__iexact=email).first()
    if existing is None:
        user = user_model(username=email, email=email, first_name=first_name, is_active=False)
        user.set_unusable_password()
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:  # two sign-ups raced for the same address
            existing = user_model.objects.filter(username__iexact=email).first()
        else:
            _send(request, user, "signup_activate", activate=True)
            return
    if existing is None:  # pragma: no cover - the racing account was deleted meanwhile
        return
    if existing.is_active:
        _send(request, existing, "signup_exists", activate=False)
        return
    # Still pending: this sign-up replaces the earlier one. The fresh unusable
    # password kills every activation link mailed before (and any password an
    # older version of the sign-up form stored), the first name is this
    # request's, and the owner confirms it when they choose their password.
    existing.set_unusable_password()
    existing.first_name = first_name
    existing.save(update_fields=["password", "first_name"])
    _send(request, existing, "signup_activate", activate=True)


def _send(request: HttpRequest, user: Any, name: str, *, activate: bool) -> None:
    context: dict[str, Any] = {
        "login_url": request.build_absolute_uri(reverse("classroom:login")),
        "reset_url": request.build_absolute_uri(reverse("classroom:password_reset")),
        "valid_days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
    }
    if activate:
        context["activate_url"] = request.build_absolute_uri(
            reverse(
                "classroom:signup_activate",
                kwargs={
                    "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                    "token": activation_tokens.make_token(user),
                },
            )
        )
    send_mail(
        _("La Chasse aux Souris : votre compte enseignant·e"),
        render_to_string(T + f"{name}_email.txt", context),
        None,
        [user.email],
    )


def teacher_pending(*, uidb64: str, token: str) -> Any | None:
    """The still inactive account an activation link opens; ``None`` for a
    wrong, replaced, used or expired link. Only reads: opening the link (or a
    mail scanner fetching it) activates nothing until the password is chosen."""
    user_model = get_user_model()
    try:
        pk = urlsafe_base64_decode(uidb64).decode()
        user = user_model.objects.get(pk=pk)
    except (ValueError, TypeError, OverflowError, user_model.DoesNotExist):
        return None
    if user.is_active or not activation_tokens.check_token(user, token):
        return None
    return user


def teacher_activate(*, user: Any, password: str, first_name: str) -> None:
    """Open ``user``'s account with the password its owner just chose. The
    password change alone retires the link (its token hashed the old one)."""
    user.set_password(password)
    user.first_name = first_name
    user.is_active = True
    user.save(update_fields=["password", "first_name", "is_active"])
