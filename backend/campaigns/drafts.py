"""Wizard drafts on the server (/api/campaign-drafts): a user only ever reads or writes their own.

The pledge campaign wizard saves its form at every step change and resumes the newest open
draft; the grant tool does the same with tool type ``grant_funding``.
"""

import json
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.models import Draft
from common.errors import FieldValidationError, NotFoundError

# The wizard's form is a few kilobytes; this keeps a misbehaving client from storing megabytes.
STEP_DATA_MAX_BYTES = 20_000
MAX_STEP = 50
MAX_DRAFT_ID = 2**63 - 1


def _check_step_data(step_data: dict[str, Any]) -> None:
    size = len(json.dumps(step_data, separators=(",", ":"), ensure_ascii=False).encode())
    if size > STEP_DATA_MAX_BYTES:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={"step_data": _("The draft is too large to save (at most 20 KB).")},
        )


def draft_list_open(*, user: User, tool_type: str) -> QuerySet[Draft]:
    """The user's open drafts of one tool, newest first: the first is the one to resume."""
    return Draft.objects.filter(user=user, tool_type=tool_type, is_completed=False).order_by("-updated_at", "-id")


def draft_get(*, user: User, draft_id: int) -> Draft:
    """The user's own draft; anyone else's is answered as missing (404), like an unknown id."""
    draft = Draft.objects.filter(pk=draft_id, user=user).first() if 1 <= draft_id <= MAX_DRAFT_ID else None
    if draft is None:
        raise NotFoundError(_("Draft not found"), code="not_found")
    return draft


def draft_create(*, user: User, tool_type: str, step_data: dict[str, Any], current_step: int) -> Draft:
    _check_step_data(step_data)
    return Draft.objects.create(user=user, tool_type=tool_type, step_data=step_data, current_step=current_step)


def draft_update(
    *,
    draft: Draft,
    step_data: dict[str, Any] | None = None,
    current_step: int | None = None,
    is_completed: bool | None = None,
) -> Draft:
    """Change the fields given; ``None`` leaves a field as it is."""
    changes: dict[str, object] = {}
    if step_data is not None:
        _check_step_data(step_data)
        changes["step_data"] = step_data
    if current_step is not None:
        changes["current_step"] = current_step
    if is_completed is not None:
        changes["is_completed"] = is_completed
    for field, value in changes.items():
        setattr(draft, field, value)
    draft.save(update_fields=[*changes, "updated_at"])
    return draft


def drafts_complete(*, user: User, tool_type: str) -> int:
    """Mark the user's open drafts of a tool completed (after a launch); returns how many."""
    return Draft.objects.filter(user=user, tool_type=tool_type, is_completed=False).update(
        is_completed=True, updated_at=timezone.now()
    )
