from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from common.backups import SUFFIXES, BackupError, backup_create, database_kind


class Command(BaseCommand):
    help = (
        "Back up the whole database while the site runs: pg_dump (custom format) on PostgreSQL, "
        "SQLite's online backup otherwise. Restore it with backup_restore."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path", nargs="?", type=Path, help="Where to write it (default: harambee-<UTC time>.dump or .sqlite3)."
        )
        parser.add_argument("--database", default="default", help="The database alias (default: default).")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            kind = database_kind(options["database"])
            path = options["path"] or Path(f"harambee-{timezone.now():%Y%m%d-%H%M%S}{SUFFIXES[kind]}")
            backup_create(path=path, alias=options["database"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(f"Backed up the {kind} database to {path}."))
