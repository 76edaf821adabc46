"""Campaign field rules. ``check_*`` functions return a message for a bad value, or ``None``."""

import re
from datetime import date
from urllib.parse import parse_qs, urlsplit

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.categories import Category

# A YouTube video id: eleven characters of the URL-safe base64 alphabet.
YOUTUBE_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")
YOUTUBE_HOSTS = {"youtube.com", "www.youtube.com", "m.youtube.com", "youtube-nocookie.com", "www.youtube-nocookie.com"}
# An absolute http(s) address, or a path on this site such as /static/... or /media/... ("//" is not a path).
MEDIA_URL_PATTERN = re.compile(r"^(?:https?://[^\s/$.?#][^\s]*|/(?!/)[^\s]*)$", re.IGNORECASE)
MEDIA_URL_MAX_LENGTH = 500
VIDEO_EXTENSIONS = (".mp4", ".webm")

# Payment option methods and the detail fields each needs (spec section 3), in display order.
PAYMENT_METHOD_FIELDS: dict[str, tuple[str, ...]] = {
    "bank": ("bank_name", "account_name", "account_no"),
    "mpesa_till": ("till_number",),
    "paybill": ("business_number", "account_no"),
    "mpesa": ("phone_number",),
    "cash": ("location",),
}
# A campaign shows 1 to 3 collection accounts (and a legacy campaign kept as many payment options).
MAX_COLLECTION_ACCOUNTS = 3
PAYMENT_DETAIL_MAX_LENGTH = 100

TITLE_MAX_LENGTH = 200
DESCRIPTION_MAX_LENGTH = 500
STORY_MAX_LENGTH = 20_000
# Far above any real campaign, well inside the database column.
GOAL_MAX = 1_000_000_000
# The banks the legacy fundraiser wizard offers (spec section 9), as shown.
LEGACY_BANKS = (
    "Equity Bank Kenya Ltd",
    "KCB Bank Kenya Ltd",
    "Cooperative Bank of Kenya",
    "Absa Bank Kenya PLC",
    "Standard Chartered Bank Kenya",
)


def check_title(value: str) -> str | None:
    if not value.strip():
        return _("Title is required")
    if len(value.strip()) > TITLE_MAX_LENGTH:
        return _("Please keep the title under 200 characters.")
    return None


def check_description(value: str) -> str | None:
    if not value.strip():
        return _("Description is required")
    if len(value.strip()) > DESCRIPTION_MAX_LENGTH:
        return _("Please keep the description under 500 characters.")
    return None


def check_story(value: str) -> str | None:
    if not value.strip():
        return _("Story is required")
    if len(value.strip()) > STORY_MAX_LENGTH:
        return _("Please keep the story under 20,000 characters.")
    return None


def check_goal(value: int) -> str | None:
    """Whole KES, at least 1 (spec section 5)."""
    if value < 1:
        return _("Goal must be a whole number of at least 1")
    if value > GOAL_MAX:
        return _("Goal must be at most 1,000,000,000")
    return None


def check_largest_pledge(value: int) -> str | None:
    """The largest single pledge a campaign accepts: whole KES from 1 to GOAL_MAX."""
    if not 1 <= value <= GOAL_MAX:
        return _("The largest pledge must be a whole amount from Ksh 1 to Ksh 1,000,000,000.")
    return None


def check_category(value: str, *, choices: list[str] | None = None) -> str | None:
    """A category value from ``choices`` (default: any ``Category``)."""
    if not value.strip():
        return _("Category is required")
    if value not in (Category.values if choices is None else choices):
        return _("Please choose a category from the list")
    return None


def check_end_date(value: date | None) -> str | None:
    """Required, and not earlier than today in Nairobi (spec section 5)."""
    if value is None:
        return _("End date is required")
    if value < timezone.localdate():
        return _("End date cannot be in the past")
    return None


def story_excerpt(story: str) -> str:
    """A description made from a story: its first 100 characters plus '...' (spec section 9)."""
    return f"{story.strip()[:100]}..."


def youtube_id_from_url(value: str) -> str | None:
    """The video id of a YouTube link (``watch?v=``, ``youtu.be/``, ``embed/``, ``shorts/``) or a bare id."""
    value = value.strip()
    if YOUTUBE_ID.match(value):
        return value
    parts = urlsplit(value if "://" in value else f"https://{value}")
    host = (parts.hostname or "").lower()
    candidate = ""
    if host == "youtu.be":
        candidate = parts.path.strip("/").split("/")[0]
    elif host in YOUTUBE_HOSTS:
        segments = [segment for segment in parts.path.split("/") if segment]
        if segments[:1] == ["watch"]:
            candidate = parse_qs(parts.query).get("v", [""])[0]
        elif len(segments) >= 2 and segments[0] in {"embed", "shorts", "live", "v"}:
            candidate = segments[1]
    return candidate if YOUTUBE_ID.match(candidate) else None


def check_youtube_url(value: str) -> str | None:
    """Blank is fine (no video); otherwise a link we can take the video id from."""
    if value.strip() and youtube_id_from_url(value) is None:
        return _("Please enter a valid YouTube link.")
    return None


def check_media_url(value: str) -> str | None:
    """Blank is fine; otherwise an http(s) address or a path on this site (uploads, demo covers)."""
    value = value.strip()
    if value and not MEDIA_URL_PATTERN.match(value):
        return _("Please enter a valid image URL starting with http:// or https://")
    if len(value) > MEDIA_URL_MAX_LENGTH:
        return _("Please keep the URL under 500 characters.")
    return None


def validate_media_url(value: str) -> None:
    """``check_media_url`` as a model field validator (Django admin forms)."""
    if message := check_media_url(value):
        raise ValidationError(message)


def is_video_url(value: str) -> bool:
    return urlsplit(value).path.lower().endswith(VIDEO_EXTENSIONS)


def payment_options_errors(value: object, *, allow_empty: bool = False) -> dict[str, str]:
    """Messages for a list of payment options, keyed by path; empty when the list is valid.

    A valid list holds 1 to 3 ``{"method": ..., "details": {...}}`` entries, each method at most once,
    with every detail field of its method filled in (``PAYMENT_METHOD_FIELDS``). ``allow_empty``
    admits an empty list. Since collection accounts, only legacy campaigns keep options (the model's
    validator, for the admin's forms); the wizard chooses accounts (``wizard._collection_accounts_checked``).
    Keys are ``payment_options`` for the list and ``payment_options.<index>.<field>`` for an entry.
    """
    if not isinstance(value, list):
        return {"payment_options": _("Please provide at least one valid payment method to continue.")}
    if not value:
        return (
            {}
            if allow_empty
            else {"payment_options": _("Please provide at least one valid payment method to continue.")}
        )
    if len(value) > MAX_COLLECTION_ACCOUNTS:
        return {"payment_options": _("You can add at most 3 payment methods.")}
    errors: dict[str, str] = {}
    seen: set[str] = set()
    for index, option in enumerate(value):
        prefix = f"payment_options.{index}"
        method = option.get("method") if isinstance(option, dict) else None
        if method not in PAYMENT_METHOD_FIELDS:
            errors[f"{prefix}.method"] = _("Please choose a payment method.")
            continue
        assert isinstance(option, dict) and isinstance(method, str)
        if method in seen:
            errors[f"{prefix}.method"] = _("Each payment method can be used only once.")
        seen.add(method)
        details = option.get("details")
        details = details if isinstance(details, dict) else {}
        for field in PAYMENT_METHOD_FIELDS[method]:
            detail = details.get(field)
            if not isinstance(detail, str) or not detail.strip():
                errors[f"{prefix}.{field}"] = _("This field is required.")
            elif len(detail.strip()) > PAYMENT_DETAIL_MAX_LENGTH:
                errors[f"{prefix}.{field}"] = _("Please keep this under 100 characters.")
    return errors


def validate_payment_options(value: object) -> None:
    """The model field validator (Django admin forms): 0 to 3 valid options."""
    if errors := payment_options_errors(value, allow_empty=True):
        raise ValidationError([f"{path}: {message}" for path, message in errors.items()])
