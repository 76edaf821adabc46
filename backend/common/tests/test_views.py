"""The load balancer's health checks: /healthz (the process answers) and /readyz (it can serve)."""

import pytest
from django.db import OperationalError, connection
from django.db.migrations.recorder import MigrationRecorder


def test_healthz_answers_without_touching_the_database(client):
    # No `db` fixture: any query would fail the test.
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_readyz_is_ok_when_the_database_is_migrated_and_the_cache_answers(client):
    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "cache": "ok"}}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_readyz_is_unavailable_while_the_database_is_unreachable(client, monkeypatch):
    def refuse() -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "ensure_connection", refuse)

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "failed"


@pytest.mark.django_db
def test_readyz_is_unavailable_while_a_migration_is_unapplied(client):
    # As when new code reaches an instance before `manage.py migrate` ran.
    MigrationRecorder(connection).record_unapplied("sessions", "0001_initial")

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "checks": {"database": "failed", "cache": "ok"}}


@pytest.mark.django_db
def test_readyz_is_unavailable_while_the_cache_is_unreachable(client, settings):
    # Port 9 (discard) refuses at once.
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}
    }

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "ok", "cache": "failed"}
