from typing import Any

from django.core.management.base import BaseCommand, CommandError

from payments.providers import ProviderError
from payments.services import c2b_callback_urls, mpesa_c2b_urls_register


class Command(BaseCommand):
    help = "Register this site's C2B confirmation and validation URLs for MPESA_SHORTCODE (once per deployment)."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            answer = mpesa_c2b_urls_register()
        except ProviderError as exc:
            raise CommandError(str(exc)) from exc
        confirmation_url, validation_url = c2b_callback_urls()
        self.stdout.write(
            f"Registered {confirmation_url} and {validation_url}: {answer.get('ResponseDescription', '')}"
        )
