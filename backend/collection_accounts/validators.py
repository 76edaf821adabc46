"""Rules for an account's details, with the messages the forms show."""

import re

from django.conf import settings
from django.utils.translation import gettext as _

from collection_accounts.models import DETAIL_FIELDS, KIND_FIELDS, CollectionAccountKind

# Paybill, till and store numbers are Safaricom shortcodes: digits only.
SHORT_CODE = re.compile(r"^\d{5,10}$")
SHORT_CODE_FIELDS = ("paybill_number", "till_number", "store_number")
MAX_LENGTHS = {
    "label": 80,
    "paybill_number": 10,
    "till_number": 10,
    "store_number": 10,
    "account_number": 64,
    "bank_name": 100,
    "bank_branch": 100,
    "account_name": 100,
    "location": 200,
}


def _shortcode_error(field: str, value: str) -> str | None:
    if not SHORT_CODE.match(value):
        if field == "paybill_number":
            return _("Please enter a valid paybill number (digits only).")
        if field == "till_number":
            return _("Please enter a valid till number (digits only).")
        return _("Please enter a valid store number (digits only).")
    if value == settings.MPESA_SHORTCODE:
        # Harambee's own paybill takes only its fees; a church's money never goes there.
        return _("This is Harambee's paybill for its own fees. Please enter your organization's own number.")
    return None


def account_details_errors(*, kind: str, details: dict[str, str]) -> dict[str, str]:
    """Messages by field for an account of ``kind`` with these (stripped) details; empty when valid."""
    if kind not in KIND_FIELDS:
        return {"kind": _("Please choose paybill, bank collection paybill, till, bank account or cash.")}
    required, optional = KIND_FIELDS[CollectionAccountKind(kind)]
    errors: dict[str, str] = {}
    for field in ("label", *required, *optional):
        value = details.get(field, "")
        if field in required and not value:
            errors[field] = _("This field is required.")
        elif len(value) > MAX_LENGTHS[field]:
            errors[field] = _("Please keep this under %(count)d characters.") % {"count": MAX_LENGTHS[field]}
        elif value and field in SHORT_CODE_FIELDS and (message := _shortcode_error(field, value)):
            errors[field] = message
    return errors


def account_details_clean(*, kind: str, details: dict[str, str | None]) -> dict[str, str]:
    """The detail fields of ``kind`` stripped, and every other detail field emptied."""
    required, optional = KIND_FIELDS.get(kind, ((), ()))
    kept = {"label", *required, *optional}
    return {field: (details.get(field) or "").strip() if field in kept else "" for field in ("label", *DETAIL_FIELDS)}
