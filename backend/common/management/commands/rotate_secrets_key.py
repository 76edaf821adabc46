from typing import Any

from django.core.management.base import BaseCommand, CommandError

from common.encryption import SecretUnreadable, secrets_reencrypt


class Command(BaseCommand):
    help = (
        "Re-encrypt every stored secret with the first key of SECRETS_ENCRYPTION_KEYS. Put the new key "
        "first (keeping the old ones after it), run this, then drop the old keys."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rewritten = secrets_reencrypt()
        except SecretUnreadable as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(f"Re-encrypted {rewritten} stored secret(s) with the first key."))
