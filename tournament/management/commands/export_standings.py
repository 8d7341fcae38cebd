import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.exports.formats import FORMATS
from tournament.exports.standings import export_standings
from tournament.exports.teams import export_teams
from tournament.models import Event


class Command(BaseCommand):
    help = "Write an event's standings as CSV, XLSX or JSON (CONTRACT §2 columns)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=list(FORMATS), default="csv")
        parser.add_argument("--output", help="write here instead of standard output")
        parser.add_argument(
            "--teams", action="store_true", help="the team standings (CONTRACT §2) instead"
        )

    def handle(self, *args, **options):
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"slug: no event {options['slug']!r}", returncode=2)
        export = export_teams if options["teams"] else export_standings
        data = export(event, options["format"])
        if options["output"]:
            Path(options["output"]).write_bytes(data)
        elif FORMATS[options["format"]].text:
            self.stdout.write(data.decode("utf-8"), ending="")
        else:
            sys.stdout.buffer.write(data)
