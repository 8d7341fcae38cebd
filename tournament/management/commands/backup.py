import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.models import Event
from tournament.services.imports import event_export


class Command(BaseCommand):
    help = (
        "Write every event as an event file (SLUG.json) into a folder; `restore` reads them "
        "back into an empty database with the same standings."
    )

    def add_arguments(self, parser):
        parser.add_argument("folder")

    def handle(self, *args, **options):
        folder = Path(options["folder"])
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(
                f"{folder}: cannot write here ({exc.strerror})", returncode=2
            ) from None
        # One snapshot: an event saved meanwhile is either wholly in the backup or not at all.
        with transaction.atomic():
            files = {e.slug: event_export(e) for e in Event.objects.order_by("slug")}
        for slug, data in files.items():
            path = folder / f"{slug}.json"
            part = path.with_suffix(".json.part")
            part.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            part.replace(path)  # a file is whole or absent, never half-written
        self.stdout.write(f"backed up {len(files)} events to {folder}")
