from typing import Any

from django.core.management.base import BaseCommand

from payments.models import MpesaConnection
from simulators.daraja import daraja_app_register


class Command(BaseCommand):
    help = (
        "Provision, in the Daraja simulator, the Daraja app of every connected account the demo data entered "
        "(as Safaricom would have issued it), so that PIN prompts and Pull Transactions work locally."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for connection in MpesaConnection.objects.select_related("account"):
            account = connection.account
            daraja_app_register(
                shortcode=account.mpesa_shortcode,
                consumer_key=connection.consumer_key,
                consumer_secret=connection.consumer_secret,
                passkey=connection.passkey,
                till_number=account.till_number,
            )
