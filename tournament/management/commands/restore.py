from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.services.errors import ServiceError
from tournament.services.imports import event_file_read, event_import


class Command(BaseCommand):
    help = "Import every event file of a folder written by `backup`. All or nothing."

    def add_arguments(self, parser):
        parser.add_argument("folder")
        parser.add_argument(
            "--replace", action="store_true", help="overwrite events of the same slug"
        )

    def handle(self, *args, **options):
        folder = Path(options["folder"])
        paths = sorted(folder.glob("*.json"))
        if not paths:
            raise CommandError(f"{folder}: no event files (*.json) here", returncode=2)
        with transaction.atomic():  # one bad file leaves the database as it was
            for path in paths:
                try:
                    event_import(event_file_read(path), replace=options["replace"])
                except ServiceError as exc:
                    message = str(exc).replace("\n", " ")
                    raise CommandError(f"{path.name}: {message}", returncode=2) from None
        self.stdout.write(f"restored {len(paths)} events from {folder}")
