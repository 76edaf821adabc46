"""Existing campaigns' payment options become collection accounts of their organization.

- bank → a bank account; mpesa_till → a till; cash → a cash point; paybill (a business number with a
  fixed account number, as the wizard asked for it) → a paybill with a fixed account number. The same
  details within one organization become one account; the organization's first account is its default.
- Left in ``payment_options`` (shown as before, with a warning to the team): a personal M-Pesa number
  (never an account: money to a person's phone is the commonest diversion), and a till another
  organization already registered (a till reports to one organization).
- Dropped: an option naming Harambee's own paybill (``MPESA_SHORTCODE``): the platform never takes a
  church's money, so it is no longer shown to anyone.
Not reversed: going back leaves the accounts and links in place (``payment_options`` keeps what was
left in it).
"""

from django.conf import settings
from django.db import migrations

# method -> (account kind, {account field: option detail})
CONVERSIONS = {
    "bank": ("bank", {"bank_name": "bank_name", "account_name": "account_name", "account_number": "account_no"}),
    "mpesa_till": ("till", {"till_number": "till_number"}),
    "paybill": ("paybill_fixed_account", {"paybill_number": "business_number", "account_number": "account_no"}),
    "cash": ("cash", {"location": "location"}),
}
MAX_LENGTHS = {"bank_name": 100, "account_name": 100, "account_number": 64, "till_number": 10,
               "paybill_number": 10, "location": 200}


def _details(option):
    method = option.get("method") if isinstance(option, dict) else None
    if method not in CONVERSIONS:
        return None, None
    kind, fields = CONVERSIONS[method]
    given = option.get("details") if isinstance(option.get("details"), dict) else {}
    details = {field: str(given.get(key) or "").strip()[: MAX_LENGTHS[field]] for field, key in fields.items()}
    if not all(details.values()):
        return None, None
    return kind, details


def forwards(apps, schema_editor):
    # The database being migrated (a backup's, say), not necessarily the default one.
    alias = schema_editor.connection.alias
    campaigns = apps.get_model("campaigns", "Campaign").objects.using(alias)
    links = apps.get_model("campaigns", "CampaignCollectionAccount").objects.using(alias)
    accounts = apps.get_model("collection_accounts", "CollectionAccount").objects.using(alias)
    platform = settings.MPESA_SHORTCODE
    for campaign in campaigns.exclude(payment_options=[]).order_by("created_at", "id").iterator():
        kept, position = [], 0
        for option in campaign.payment_options or []:
            kind, details = _details(option)
            if kind is None:
                kept.append(option)
                continue
            if platform and platform in (details.get("paybill_number"), details.get("till_number")):
                continue
            account = accounts.filter(organization_id=campaign.organization_id, kind=kind, **details).first()
            if account is None:
                if kind == "till" and accounts.filter(kind="till", till_number=details["till_number"]).exists():
                    kept.append(option)
                    continue
                first = not accounts.filter(organization_id=campaign.organization_id).exists()
                account = accounts.create(
                    organization_id=campaign.organization_id, kind=kind, is_default=first, **details
                )
            if links.filter(campaign=campaign, account=account).exists():
                continue
            links.create(campaign=campaign, account=account, position=position)
            position += 1
        campaign.payment_options = kept
        campaign.save(update_fields=["payment_options"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0011_campaign_collection_accounts"),
        ("collection_accounts", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
