from typing import Any

from django.core.management.base import BaseCommand

from statements.services import statement_previews_expire


class Command(BaseCommand):
    help = (
        "Delete the statement previews nobody confirmed within 24 hours, with the rows they keep "
        "(run every few minutes: serve.sh's loop, or cron)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{statement_previews_expire()} statement preview(s) deleted.")
