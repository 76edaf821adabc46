"""Rules for an account's details, with the messages the forms show."""

import re

from django.conf import settings
from django.utils.translation import gettext as _

from collection_accounts.models import DETAIL_FIELDS, KIND_FIELDS, CollectionAccountKind
from common.mobile_networks import airtel_number

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
    "merchant_msisdn": 16,
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
        return {"kind": _("Please choose paybill, bank collection paybill, till, bank account, cash or Airtel Money.")}
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
        elif value and field == "merchant_msisdn" and not airtel_number(value):
            errors[field] = _("Please enter the merchant's Airtel number, e.g. 0733 123 456.")
    return errors


def account_details_clean(*, kind: str, details: dict[str, str | None]) -> dict[str, str]:
    """The detail fields of ``kind`` stripped, and every other detail field emptied; an Airtel merchant
    number in E.164 when it is one."""
    required, optional = KIND_FIELDS.get(kind, ((), ()))
    kept = {"label", *required, *optional}
    cleaned = {
        field: (details.get(field) or "").strip() if field in kept else "" for field in ("label", *DETAIL_FIELDS)
    }
    if cleaned["merchant_msisdn"] and (number := airtel_number(cleaned["merchant_msisdn"])):
        cleaned["merchant_msisdn"] = number
    return cleaned


KEYWORD_PATTERN = re.compile(r"^[A-Z0-9]{2,20}$")
KEYWORDS_MAX = 30
_KEYWORD_SEPARATORS = re.compile(r"[\s\-_./]+")


def keyword_normalize(value: str) -> str:
    """An account number as people type it, compared without case or separators ('Sadaka ', 'SADAKA')."""
    return _KEYWORD_SEPARATORS.sub("", value).upper()


def keywords_errors(keywords: list[str]) -> dict[str, str]:
    if len(keywords) > KEYWORDS_MAX:
        return {"keywords": _("Please keep to 30 keywords.")}
    bad = [keyword for keyword in keywords if not KEYWORD_PATTERN.match(keyword)]
    if bad:
        return {"keywords": _("Keywords are 2 to 20 letters or digits: %(keywords)s") % {"keywords": ", ".join(bad)}}
    return {}
