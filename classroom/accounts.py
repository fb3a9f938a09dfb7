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

A new teacher need not wait for the mail (issue 48): every sign-up creates a
*draft* account of its own (``classroom.auth_backends``) and signs the browser
in to it, so classes and sessions can be prepared at once, while nothing a
pupil or a parent reaches opens until the address is proven. Each sign-up has
its own draft, never an earlier one of the same address (a stranger's sign-up
with your address holds nothing of yours, and yours nothing of theirs), and
the activation keeps the one draft whose link was opened.

The sign-up answers every well-formed request the same way (the draft's
dashboard, "confirm your address"), and the difference only reaches the
address's owner: a new or still pending address gets an activation link, an
address that already has an account gets a note with the log-in and
password-reset links. No path hashes a password, so the answer takes as long
either way.

Mails are counted (finding 11: 40 mails to one address in a minute): per IP,
per address and IP, and per address, sign-ups and password resets together
(``account_mail_allowed``). Over the budget nothing is sent and nothing changes, and the page
says the same as when a mail left: an attacker learns neither that the address
has an account nor that its budget is spent.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from classroom.auth_backends import DRAFT_PREFIX
from classroom.services.counters import counter_hit

T = "classroom/teacher/"

#: The counting window of account mails, in seconds.
MAIL_WINDOW = 60 * 60


class ActivationTokenGenerator(PasswordResetTokenGenerator):
    """Tokens of activation links, kept apart from password-reset tokens.

    Why a salt of its own: with the shared generator a password-reset link
    opened the activation page and the other way round. ``is_active`` is
    hashed too, so a link dies once its account is open; so is the password (a
    fresh unusable one whenever a newer sign-up retires the draft).
    Links expire after ``PASSWORD_RESET_TIMEOUT`` seconds like reset links.
    Unlike a reset token, ``last_login`` is left out: signing the browser in
    to its draft (issue 48) must not kill the link just mailed."""

    key_salt = "classroom.accounts.ActivationTokenGenerator"

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        return f"{user.pk}{user.password}{timestamp}{user.email}{user.is_active}"


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


def teacher_signup(*, request: HttpRequest, email: str, first_name: str) -> Any | None:
    """Create a draft account for this browser and mail its activation link,
    or, when the address has an open account, mail its owner a note instead.

    Returns the draft, which the view signs in (``auth_backends``): a new
    teacher prepares a class before opening the mail (issue 48), while no
    address is claimed and no pupil sees anything. Every well-formed sign-up
    gets a draft of its own, whatever the address, so the answer never tells
    whether an account exists, and an earlier sign-up for the same address
    (perhaps a stranger's) is never shared. ``None`` once this network has made
    ``TEACHER_DRAFTS_PER_IP_PER_HOUR`` drafts: that limit is the requester's
    own and says nothing about the address.

    Within the mail budget, the sign-up retires every earlier pending account
    of the address (a fresh unusable password kills its links and signs its
    browser out). Over the budget no mail leaves and nothing else changes."""
    ip = request_ip(request)
    if counter_hit(key=f"draft:ip:{ip}", window=MAIL_WINDOW) > settings.TEACHER_DRAFTS_PER_IP_PER_HOUR:
        return None
    mail_allowed = account_mail_allowed(email=email, ip=ip)
    user_model = get_user_model()
    draft = user_model(
        username=DRAFT_PREFIX + secrets.token_hex(12),
        email=email,
        first_name=first_name,
        is_active=False,
    )
    draft.set_unusable_password()
    with transaction.atomic():
        draft.save()
        if mail_allowed:
            for earlier in _pending_of(email).exclude(pk=draft.pk).select_for_update():
                earlier.set_unusable_password()
                earlier.save(update_fields=["password"])
    if mail_allowed:
        _mail_for(request, draft)
    return draft


def teacher_mail_resend(*, request: HttpRequest, draft: Any) -> None:
    """"Renvoyer l'e-mail" from a draft's pages: the same mail again, counted
    like any other; the draft and its earlier links stay as they are."""
    if account_mail_allowed(email=draft.email, ip=request_ip(request)):
        _mail_for(request, draft)


def _open_account(email: str) -> Any | None:
    return get_user_model().objects.filter(username__iexact=email, is_active=True).first()


def _pending_of(email: str) -> Any:
    """Every account of ``email`` still waiting for its owner: drafts, and
    pending accounts made before drafts existed (user name = address)."""
    return get_user_model().objects.filter(
        Q(email__iexact=email) | Q(username__iexact=email), is_active=False
    )


def _mail_for(request: HttpRequest, draft: Any) -> None:
    existing = _open_account(draft.email)
    if existing is not None:
        _send(request, existing, "signup_exists", activate=False)
    else:
        _send(request, draft, "signup_activate", activate=True)


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
    if _open_account(user.email) is not None:  # another draft of it was activated first
        return None
    return user


def teacher_activate(*, user: Any, password: str, first_name: str) -> bool:
    """Open ``user``'s account with the password its owner just chose; the
    user name becomes the address. ``False`` when the address was opened
    meanwhile (another link of it won the race).

    Takes the row locks of every pending account of the address: the other
    drafts (earlier sign-ups, maybe a stranger's) are deleted with what they
    hold, which no pupil ever saw, so the proved owner ends with one account.
    The password change alone retires the link (its token hashed the old one)
    and signs out every other browser holding this draft."""
    with transaction.atomic():
        pending = list(_pending_of(user.email).select_for_update())
        if _open_account(user.email) is not None or user.pk not in {p.pk for p in pending}:
            return False
        for other in pending:
            if other.pk != user.pk:
                other.delete()
        user.username = user.email
        user.set_password(password)
        user.first_name = first_name
        user.is_active = True
        try:
            with transaction.atomic():
                user.save(update_fields=["username", "password", "first_name", "is_active"])
        except IntegrityError:  # pragma: no cover - an open account took the name meanwhile
            return False
    return True

