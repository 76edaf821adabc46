from typing import Any

from django.core.management.base import BaseCommand

from organizations.services import change_requests_expire


class Command(BaseCommand):
    help = (
        "Write down as expired the team changes left unapproved for 7 days "
        "(run every few minutes: serve.sh's loop, or cron)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{change_requests_expire()} change request(s) expired.")
