from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models

from accounts.models import User
from audit.models import AuditEntry


def audit_record(
    *,
    actor: User | None,
    action: str,
    target: models.Model,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """Log ``action`` on ``target`` by ``actor`` (``None``: the system), inside the caller's transaction."""
    return AuditEntry.objects.create(
        actor=actor,
        action=action,
        object_type=ContentType.objects.get_for_model(target),
        object_id=target.pk,
        object_repr=str(target)[:200],
        before=before or {},
        after=after or {},
    )
