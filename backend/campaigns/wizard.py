"""Creating campaigns: the pledge campaign wizard, the legacy fundraiser wizard, and the wizard's feedback.

The server checks everything the wizards check, with the same rules (``campaigns.validators``).
The organizer is always the signed-in user, and the campaign belongs to one of the organizations
they own (``organizations.services.organization_choose_for_campaign``). A subscriber's campaign goes
live at once; anyone else's waits, pending, for the activation payment (payments app).
"""

from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.validators import check_email, check_kenyan_phone, normalize_name
from campaigns import drafts, validators
from campaigns.categories import WIZARD_CATEGORIES
from campaigns.models import (
    Campaign,
    CampaignCollectionAccount,
    CampaignStatus,
    CampaignType,
    DraftToolType,
    MediaType,
    WizardFeedback,
)
from campaigns.services import media_type_for
from collection_accounts.models import DETAIL_FIELDS, CollectionAccount, CollectionAccountKind
from collection_accounts.selectors import collection_account_matching, collection_accounts_of
from collection_accounts.services import (
    collection_account_details_check,
    collection_account_find_or_create,
    collection_account_needs_approval,
)
from common.errors import FieldValidationError, NotFoundError, ServiceError
from organizations.models import ChangeRequest
from organizations.services import organization_choose_for_campaign
from payments.selectors import user_has_paid

WIZARD_CATEGORY_VALUES = [value for value, _label in WIZARD_CATEGORIES]
DEFAULT_DURATION_DAYS = 30
MAX_DURATION_DAYS = 365
BANK_TEXT_MAX_LENGTH = 100
FEEDBACK_TEXT_MAX_LENGTH = 2000
CONTACT_MAX_LENGTH = 200


def _campaign_fields(
    errors: dict[str, str], *, title: str, category: str, goal: int, story: str, media_type: str, media_url: str
) -> dict[str, Any]:
    """The fields both wizards share, checked into ``errors``; the cover is required (spec section 5)."""
    checks = {
        "title": validators.check_title(title),
        "category": validators.check_category(category, choices=WIZARD_CATEGORY_VALUES),
        "goal": validators.check_goal(goal),
        "story": validators.check_story(story),
    }
    errors.update({name: message for name, message in checks.items() if message})
    media_url = media_url.strip()
    youtube_id = ""
    if media_type == MediaType.YOUTUBE:
        youtube_id = validators.youtube_id_from_url(media_url) or ""
        if not media_url:
            errors["media_url"] = _("Please enter a YouTube link.")
        elif message := validators.check_youtube_url(media_url):
            errors["media_url"] = message
        media_url = ""
    elif not media_url:
        errors["media_url"] = _("Please upload an image or video.")
    elif message := validators.check_media_url(media_url):
        errors["media_url"] = message
    return {
        "title": title.strip(),
        "category": category,
        "goal": goal,
        "story": story.strip(),
        "description": validators.story_excerpt(story),
        "image_url": media_url,
        "youtube_id": youtube_id,
        "media_type": media_type_for(image_url=media_url, youtube_id=youtube_id),
    }


def _initial_status(user: User) -> str:
    return CampaignStatus.ACTIVE if user_has_paid(user=user) else CampaignStatus.PENDING


def _collection_accounts_checked(
    errors: dict[str, str], *, organization_id: int | None, entries: list[dict[str, Any]], allow_empty: bool
) -> None:
    """The wizard's payment step (spec section 5, with collection accounts for methods): 1 to 3
    entries, each once; an entry is one of the organization's accounts (``account_id``) or a new one
    (``kind`` and its details). Problems go into ``errors`` under ``collection_accounts[.<index>.<field>]``."""
    if not entries:
        if not allow_empty:
            errors["collection_accounts"] = _("Please provide at least one valid payment method to continue.")
        return
    if len(entries) > validators.MAX_COLLECTION_ACCOUNTS:
        errors["collection_accounts"] = _("You can add at most 3 payment methods.")
        return
    own = (
        set(collection_accounts_of(organization=organization_id).values_list("pk", flat=True))
        if organization_id
        else set()
    )
    # An organization under the two-person rule adds no account here: a new one would wait for approval.
    guarded_organization_id = (
        organization_id
        if organization_id and collection_account_needs_approval(organization_id=organization_id)
        else None
    )
    seen: set[object] = set()
    for index, entry in enumerate(entries):
        prefix = f"collection_accounts.{index}"
        account_id, kind = entry.get("account_id"), entry.get("kind")
        if account_id is not None:
            if account_id not in own:
                errors[f"{prefix}.account_id"] = _("Please choose one of the organization's accounts.")
            key: object = account_id
        elif kind is None:
            errors[f"{prefix}.account_id"] = _("Please choose a payment method.")
            continue
        else:
            details = {field: entry.get(field) for field in ("label", *DETAIL_FIELDS)}
            cleaned, problems = collection_account_details_check(kind=kind, details=details)
            errors.update({f"{prefix}.{field}": message for field, message in problems.items()})
            key = (kind, *(value for field, value in cleaned.items() if field != "label"))
            if (
                not problems
                and guarded_organization_id is not None
                and collection_account_matching(organization_id=guarded_organization_id, kind=kind, details=cleaned)
                is None
            ):
                errors[f"{prefix}.account_id"] = _new_account_needs_approval()
        if key in seen:
            errors[f"{prefix}.account_id"] = _("Each payment method can be used only once.")
        seen.add(key)


def _new_account_needs_approval() -> str:
    return _(
        "A new account needs another owner's or treasurer's approval: add it under Collection accounts on "
        "your organization's page, then choose it here."
    )


def campaign_accounts_link(*, campaign: Campaign, user: User, entries: list[dict[str, Any]]) -> None:
    """Link the campaign to its accounts in order, adding the new ones to its organization; none
    given (a subscriber): the organization's default account, if it has one."""
    organization_id = campaign.organization_id
    accounts: list[CollectionAccount] = []
    for entry in entries:
        if entry.get("account_id") is not None:
            accounts.append(CollectionAccount.objects.get(pk=entry["account_id"], organization_id=organization_id))
            continue
        account = collection_account_find_or_create(
            user=user,
            organization_id=organization_id,
            **{field: value for field, value in entry.items() if field not in ("account_id", "is_default")},
        )
        if isinstance(account, ChangeRequest):
            # A new account waiting for approval cannot take payments yet (the wizards check first).
            raise ServiceError(_new_account_needs_approval(), code="account_needs_approval")
        accounts.append(account)
    if not entries:
        accounts = list(collection_accounts_of(organization=organization_id).filter(is_default=True))
    CampaignCollectionAccount.objects.bulk_create(
        CampaignCollectionAccount(campaign=campaign, account=account, position=position)
        for position, account in enumerate(accounts)
    )


@transaction.atomic
def campaign_create_pledging(
    *,
    organizer: User,
    organization_id: int | None = None,
    title: str,
    category: str,
    goal: int,
    story: str,
    end_date: date | None,
    media_type: str,
    media_url: str,
    collection_accounts: list[dict[str, Any]],
) -> Campaign:
    """Launch a pledge campaign from the wizard (POST /api/pledging-campaigns).

    Pending for non-subscribers, active for subscribers, who may leave out the collection accounts (they
    get their organization's default one). New accounts given inline join the organization.
    Starts today; the organizer's open pledging drafts are marked completed.
    """
    status = _initial_status(organizer)
    errors: dict[str, str] = {}
    fields = _campaign_fields(
        errors, title=title, category=category, goal=goal, story=story, media_type=media_type, media_url=media_url
    )
    if message := validators.check_end_date(end_date):
        errors["end_date"] = message
    # Before the payment step's check, which needs it; its own refusal joins the other messages.
    organization = None
    try:
        organization = organization_choose_for_campaign(user=organizer, organization_id=organization_id)
    except FieldValidationError as exc:
        errors.update(exc.field_errors)
    _collection_accounts_checked(
        errors,
        organization_id=organization.pk if organization else None,
        entries=collection_accounts,
        allow_empty=status == CampaignStatus.ACTIVE,
    )
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    assert end_date is not None and organization is not None
    campaign = Campaign.objects.create(
        **fields,
        type=CampaignType.PLEDGING,
        status=status,
        organizer=organizer,
        organization=organization,
        start_date=timezone.localdate(),
        end_date=end_date,
    )
    campaign_accounts_link(campaign=campaign, user=organizer, entries=collection_accounts)
    drafts.drafts_complete(user=organizer, tool_type=DraftToolType.PLEDGING)
    return campaign


@transaction.atomic
def campaign_create_fundraiser(
    *,
    organizer: User,
    organization_id: int | None = None,
    title: str,
    category: str,
    goal: int,
    story: str,
    duration_days: int,
    media_type: str,
    media_url: str,
    bank_name: str,
    account_name: str,
    account_no: str,
) -> Campaign:
    """Create a fundraiser from the legacy wizard (POST /api/campaigns).

    It ends ``duration_days`` after today, its description is the story's first 100 characters
    plus '...', and its bank details (all required, one of the five banks) become its bank account
    (a collection account of its organization; the same details again are the same account). Its
    status follows the same subscriber rule as pledge campaigns.
    """
    errors: dict[str, str] = {}
    fields = _campaign_fields(
        errors, title=title, category=category, goal=goal, story=story, media_type=media_type, media_url=media_url
    )
    if not 1 <= duration_days <= MAX_DURATION_DAYS:
        errors["duration_days"] = _("Duration must be between 1 and 365 days")
    if bank_name not in validators.LEGACY_BANKS:
        errors["bank_name"] = (
            _("Bank name is required") if not bank_name.strip() else _("Please choose a bank from the list")
        )
    account_name = normalize_name(account_name)
    for name, value, required in (
        ("account_name", account_name, _("Account name is required")),
        ("account_no", account_no, _("Account number is required")),
    ):
        if not value.strip():
            errors[name] = required
        elif len(value.strip()) > BANK_TEXT_MAX_LENGTH:
            errors[name] = _("Please keep this under 100 characters.")
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    today = timezone.localdate()
    campaign = Campaign.objects.create(
        **fields,
        type=CampaignType.FUNDRAISING,
        status=_initial_status(organizer),
        organizer=organizer,
        organization=organization_choose_for_campaign(user=organizer, organization_id=organization_id),
        start_date=today,
        end_date=today + timedelta(days=duration_days),
    )
    bank = {
        "kind": CollectionAccountKind.BANK,
        "bank_name": bank_name,
        "account_name": account_name,
        "account_number": account_no,
    }
    campaign_accounts_link(campaign=campaign, user=organizer, entries=[bank])
    return campaign


def wizard_feedback_create(
    *,
    user: User,
    campaign_id: int | None,
    liked: str,
    confusing: str,
    features_wanted: str,
    rating: int,
    wants_interview: bool,
    contact: str,
) -> WizardFeedback:
    """Save the optional feedback of the wizard's thank-you dialog.

    Every text is optional; the rating is 1 to 5. Asking for an interview needs an e-mail address
    or a Kenyan phone number to reach the user. ``campaign_id`` must be one of the user's campaigns.
    """
    errors: dict[str, str] = {}
    texts = {"liked": liked.strip(), "confusing": confusing.strip(), "features_wanted": features_wanted.strip()}
    for name, value in texts.items():
        if len(value) > FEEDBACK_TEXT_MAX_LENGTH:
            errors[name] = _("Please keep this under 2,000 characters.")
    if not 1 <= rating <= 5:
        errors["rating"] = _("Please choose a rating from 1 to 5.")
    contact = contact.strip() if wants_interview else ""
    if wants_interview and (
        len(contact) > CONTACT_MAX_LENGTH or (check_email(contact) and check_kenyan_phone(contact))
    ):
        errors["contact"] = _("Please enter your e-mail address or phone number.")
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    campaign = None
    if campaign_id is not None:
        campaign = Campaign.objects.filter(pk=campaign_id, organizer=user).first()
        if campaign is None:
            raise NotFoundError(_("Campaign not found"), code="not_found")
    return WizardFeedback.objects.create(
        user=user,
        campaign=campaign,
        rating=rating,
        wants_interview=wants_interview,
        contact=contact,
        **texts,
    )
