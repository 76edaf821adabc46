from typing import Any

from django.core.management.base import BaseCommand

from collection_accounts.models import CollectionAccount
from payments.models import AirtelConnection, MpesaConnection
from payments.selectors import airtel_callback_url, mpesa_callback_urls
from simulators.airtel import airtel_app_register
from simulators.daraja import daraja_app_register
from simulators.models import SimulatedC2BRegistration, SimulatedPullRegistration, SimulatedSubaccount


class Command(BaseCommand):
    help = (
        "Provision, in the simulators, what the demo data says Safaricom and Paystack hold: the Daraja app of "
        "every connected account (as Safaricom would have issued it) with its registered C2B URLs and its Pull "
        "Transactions registration, so that PIN prompts, paybill payments and the scheduled Pull work locally; "
        "the Paystack subaccount of every bank account that takes cards; and the Airtel app of every Airtel Money "
        "account with credentials, calling back this site."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for connection in MpesaConnection.objects.select_related("account").filter(c2b_registered_at__isnull=False):
            account = connection.account
            daraja_app_register(
                shortcode=account.mpesa_shortcode,
                consumer_key=connection.consumer_key,
                consumer_secret=connection.consumer_secret,
                passkey=connection.passkey,
                till_number=account.till_number,
            )
            urls = mpesa_callback_urls(connection)
            SimulatedC2BRegistration.objects.update_or_create(
                shortcode=account.mpesa_shortcode,
                defaults={
                    "response_type": "Completed",
                    "confirmation_url": urls["c2b_confirmation"],
                    "validation_url": urls["c2b_validation"],
                },
            )
            if connection.pull_registered_at is not None:
                # As payments.services.mpesa_connection_connect registers it: Pull calls the confirmation URL.
                SimulatedPullRegistration.objects.update_or_create(
                    shortcode=account.mpesa_shortcode,
                    defaults={
                        "nominated_number": connection.nominated_number.lstrip("+"),
                        "callback_url": urls["c2b_confirmation"],
                    },
                )
        for airtel in AirtelConnection.objects.select_related("account"):
            airtel_app_register(
                client_id=airtel.client_id,
                client_secret=airtel.client_secret,
                merchant_msisdn=airtel.account.merchant_msisdn,
                callback_url=airtel_callback_url(airtel),
                callback_key=airtel.callback_key,
            )
        for bank_account in CollectionAccount.objects.select_related("organization").exclude(card_subaccount_code=""):
            SimulatedSubaccount.objects.update_or_create(
                subaccount_code=bank_account.card_subaccount_code,
                defaults={
                    "business_name": bank_account.organization.name,
                    "settlement_bank": bank_account.card_settlement_bank,
                    "account_number": bank_account.account_number,
                    "percentage_charge": 0,
                },
            )
