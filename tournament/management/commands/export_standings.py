import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.exports import FORMATS, export_standings
from tournament.models import Event


class Command(BaseCommand):
    help = "Write an event's standings as CSV, XLSX or JSON (CONTRACT §2 columns)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=list(FORMATS), default="csv")
        parser.add_argument("--output", help="write here instead of standard output")

    def handle(self, *args, **options):
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"slug: no event {options['slug']!r}", returncode=2)
        data = export_standings(event, options["format"])
        if options["output"]:
            Path(options["output"]).write_bytes(data)
        elif FORMATS[options["format"]].text:
            self.stdout.write(data.decode("utf-8"), ending="")
        else:
            sys.stdout.buffer.write(data)
