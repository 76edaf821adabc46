from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models

from accounts.models import User
from audit.models import AuditEntry


def _entry(
    *,
    actor: User | None,
    action: str,
    target: models.Model,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
) -> AuditEntry:
    return AuditEntry(
        actor=actor,
        action=action,
        object_type=ContentType.objects.get_for_model(target),
        object_id=target.pk,
        object_repr=str(target)[:200],
        before=before or {},
        after=after or {},
    )


def audit_record(
    *,
    actor: User | None,
    action: str,
    target: models.Model,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """Log ``action`` on ``target`` by ``actor`` (``None``: the system), inside the caller's transaction."""
    entry = _entry(actor=actor, action=action, target=target, before=before, after=after)
    entry.save(force_insert=True)
    return entry


def audit_record_many(
    *, actor: User | None, action: str, changes: list[tuple[models.Model, dict[str, Any], dict[str, Any]]]
) -> None:
    """``audit_record`` of one action by one actor on many targets, each ``(target, before, after)``, in a
    few INSERTs (a whole statement import undone)."""
    AuditEntry.objects.bulk_create(
        [
            _entry(actor=actor, action=action, target=target, before=before, after=after)
            for target, before, after in changes
        ],
        batch_size=500,
    )
