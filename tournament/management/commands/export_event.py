import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Event
from tournament.services.imports import event_export


class Command(BaseCommand):
    help = "Write an event file (CONTRACT §2) that import_event takes back unchanged."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", help="write here instead of standard output")

    def handle(self, *args, **options):
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"slug: no event {options['slug']!r}", returncode=2)
        text = json.dumps(event_export(event), ensure_ascii=False, indent=1)
        if options["output"]:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
        else:
            self.stdout.write(text)
