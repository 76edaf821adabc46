from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.backups import BackupError, backup_restore


class Command(BaseCommand):
    help = "Replace everything in the database with a backup made by backup_create."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="The backup file.")
        parser.add_argument("--database", default="default", help="The database alias (default: default).")
        parser.add_argument(
            "--noinput", "--no-input", action="store_false", dest="interactive", help="Do not ask for confirmation."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["path"]
        if not path.is_file():
            raise CommandError(f"No backup at {path}.")
        if options["interactive"]:
            answer = input(f"Every row in the database will be replaced by the backup {path}. Type 'yes' to go on: ")
            if answer.strip().lower() != "yes":
                raise CommandError("Restore cancelled.")
        try:
            backup_restore(path=path, alias=options["database"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(f"Restored {path}."))
