"""Demo data: an Airtel Money merchant account with its Airtel app's credentials, taking the greenhouse
campaign's payments beside its bank and cash point, so Airtel Money pushes work locally (``manage.py
simulators_load_demo`` provisions the same app, with this site's callback URL, in the Airtel simulator)."""

from django.utils import timezone

from campaigns.models import Campaign, CampaignCollectionAccount
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from payments.models import AirtelConnection

AIRTEL_CAMPAIGN = "Greenhouse for the Nyandarua Women's Group"
AIRTEL_MERCHANT = "+254733000111"
AIRTEL_CLIENT_ID, AIRTEL_CLIENT_SECRET = "greenhouse-airtel-demo-id", "greenhouse-airtel-demo-secret"


def demo_airtel_load() -> CollectionAccount | None:
    """The greenhouse campaign's Airtel Money account, made once (None without that campaign)."""
    campaign = Campaign.objects.filter(title=AIRTEL_CAMPAIGN).first()
    if campaign is None:
        return None
    account, _created = CollectionAccount.objects.get_or_create(
        kind=CollectionAccountKind.AIRTEL_MONEY,
        merchant_msisdn=AIRTEL_MERCHANT,
        defaults={
            "organization": campaign.organization,
            "label": "Women's group Airtel Money",
            "airtel_connected_at": timezone.now(),
        },
    )
    AirtelConnection.objects.get_or_create(
        account=account, defaults={"client_id": AIRTEL_CLIENT_ID, "client_secret": AIRTEL_CLIENT_SECRET}
    )
    if not CampaignCollectionAccount.objects.filter(campaign=campaign, account=account).exists():
        CampaignCollectionAccount.objects.create(
            campaign=campaign, account=account, position=campaign.account_links.count()
        )
    return account
