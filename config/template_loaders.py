"""Template loading: the live table templates lose their indentation once, when
loaded, instead of on every render.

A move re-renders every screen of its table, and each update is sent to every
tablet: indentation is bytes on the school's Wi-Fi and work for the server.
Squeezing it out of the rendered HTML (a regex over every screen) took a
noticeable share of a loaded worker; squeezing it out of the template source
costs nothing per render. Only ``cardgames/`` templates are squeezed (nothing there is
preformatted); a run of blanks holding a line break becomes one line break,
which the browser reads the same.
"""

from __future__ import annotations

import re

from django.template import Origin
from django.template.loaders.filesystem import Loader as FilesystemLoader

_BLANKS = re.compile(r"[ \t]*\n\s*")
SQUEEZED = ("cardgames/",)


def squeeze(source: str) -> str:
    return _BLANKS.sub("\n", source)


class Loader(FilesystemLoader):
    """The project's ``templates/`` folder, with ``cardgames/`` squeezed."""

    def get_contents(self, origin: Origin) -> str:
        source = super().get_contents(origin)
        if str(origin.template_name or "").startswith(SQUEEZED):
            return squeeze(source)
        return source
