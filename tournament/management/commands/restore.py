import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.services.errors import ServiceError
from tournament.services.imports import event_import


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
                    data = json.loads(path.read_text(encoding="utf-8"))
                    event_import(data, replace=options["replace"])
                except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                    raise CommandError(
                        f"{path.name}: not a JSON event file ({exc})", returncode=2
                    ) from None
                except ServiceError as exc:
                    raise CommandError(f"{path.name}: {exc}", returncode=2) from None
        self.stdout.write(f"restored {len(paths)} events from {folder}")
