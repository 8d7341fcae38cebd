import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.exports.ema import export_ema
from tournament.exports.formats import FORMATS
from tournament.exports.standings import export_standings
from tournament.exports.teams import export_teams
from tournament.models import Event

EMA = "ema"  # the EMA's results file (exports/ema.py)


class Command(BaseCommand):
    help = (
        "Write an event's standings as CSV, XLSX or JSON (CONTRACT §2 columns); --format ema: "
        "the results the EMA asks for, as CSV, or XLSX when --output ends in .xlsx."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        # `ema` is a table, not a file type: CSV, or XLSX by the --output file's ending.
        parser.add_argument("--format", choices=[*FORMATS, EMA], default="csv")
        parser.add_argument("--output", help="write here instead of standard output")
        parser.add_argument(
            "--teams", action="store_true", help="the team standings (CONTRACT §2) instead"
        )

    def handle(self, *args, **options):
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"slug: no event {options['slug']!r}", returncode=2)
        fmt, output = options["format"], options["output"]
        if fmt == EMA:
            if options["teams"]:
                raise CommandError("teams: the EMA's file has players, not teams", returncode=2)
            fmt = "xlsx" if output and output.lower().endswith(".xlsx") else "csv"
            export = export_ema
        else:
            export = export_teams if options["teams"] else export_standings
        data = export(event, fmt)
        if output:
            Path(output).write_bytes(data)
        elif FORMATS[fmt].text:
            self.stdout.write(data.decode("utf-8"), ending="")
        else:
            sys.stdout.buffer.write(data)
