from typing import Any

from django.core.management.base import BaseCommand

from payments.models import MpesaConnection
from payments.selectors import mpesa_callback_urls
from simulators.daraja import daraja_app_register
from simulators.models import SimulatedC2BRegistration


class Command(BaseCommand):
    help = (
        "Provision, in the Daraja simulator, the Daraja app of every connected account the demo data entered "
        "(as Safaricom would have issued it) with its registered C2B URLs, so that PIN prompts, paybill "
        "payments and Pull Transactions work locally."
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
