"""The health URL a reverse proxy or a school's monitor polls."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from config import views

pytestmark = pytest.mark.django_db


def test_health_checks_the_database_and_the_channel_layer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "database": "ok", "channel_layer": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_health_says_which_part_fails_without_details(client: Client, monkeypatch: Any) -> None:
    def broken() -> None:
        raise OSError("connection refused to 10.0.0.7:5432 password=secret")

    monkeypatch.setattr(views, "_database_ok", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "database": "failing", "channel_layer": "ok"}
    assert b"secret" not in response.content and b"10.0.0.7" not in response.content


def test_health_fails_when_the_channel_layer_does_not_deliver(client: Client, monkeypatch: Any) -> None:
    async def silent() -> None:
        raise ConnectionError("redis down")

    monkeypatch.setattr(views, "_channel_layer_ok", silent)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["channel_layer"] == "failing"
