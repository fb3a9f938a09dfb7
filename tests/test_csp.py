"""Finding 7: a strict Content-Security-Policy in every mode, and no markup
that it would refuse (inline handlers, inline scripts, style attributes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.django_db
def test_every_page_carries_a_strict_policy(client: Client) -> None:
    policy = client.get("/")["Content-Security-Policy"]
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ")}
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"][0] == "'self'"
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy


def test_no_template_holds_what_the_policy_refuses() -> None:
    refused = re.compile(
        r"""hx-on|\son[a-z]+\s*=|<script(?![^>]*\ssrc=)|\sstyle\s*=""", re.IGNORECASE
    )
    offenders = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if refused.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:90]}")
    assert not offenders, "\n".join(offenders)


def test_htmx_injects_no_style_and_evaluates_no_inline_code(client: Client) -> None:
    html = client.get("/").content.decode()
    assert '"includeIndicatorStyles": false' in html
    assert '"allowEval": false' in html
    assert 'src="/static/js/app.js"' in html
