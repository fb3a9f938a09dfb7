"""The avatars and the nine code pictures, with the names said aloud.

They are static SVG files (``static/img/avatars``, ``static/img/pictures``):
drawn once, cached by the browser, printed crisply on the login cards. Each
picture differs by shape *and* colour, and carries a name for screen readers,
so colour is never the only signal.
"""

from __future__ import annotations

from django.templatetags.static import static
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

AVATARS: dict[str, Promise] = {
    "chat": _("chat"),
    "chien": _("chien"),
    "souris": _("souris"),
    "ours": _("ours"),
    "renard": _("renard"),
    "lapin": _("lapin"),
    "hibou": _("hibou"),
    "grenouille": _("grenouille"),
    "panda": _("panda"),
    "cochon": _("cochon"),
    "lion": _("lion"),
    "koala": _("koala"),
}

# Index (0..8) → picture. The index is what a picture code stores.
PICTURES: list[tuple[str, Promise]] = [
    ("soleil", _("soleil")),
    ("pomme", _("pomme")),
    ("etoile", _("étoile")),
    ("poisson", _("poisson")),
    ("maison", _("maison")),
    ("bateau", _("bateau")),
    ("fleur", _("fleur")),
    ("lune", _("lune")),
    ("ballon", _("ballon")),
]
CODE_LENGTH = 2


def avatar_url(avatar: str) -> str:
    return static(f"img/avatars/{avatar if avatar in AVATARS else 'souris'}.svg")


def avatar_label(avatar: str) -> str:
    return str(AVATARS.get(avatar, _("animal")))


def picture(index: int) -> dict[str, object]:
    """What a template needs to draw picture ``index``."""
    key, label = PICTURES[index]
    return {"index": index, "key": key, "label": label, "url": static(f"img/pictures/{key}.svg")}


def all_pictures() -> list[dict[str, object]]:
    return [picture(i) for i in range(len(PICTURES))]
