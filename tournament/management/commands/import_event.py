from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Game
from tournament.services.errors import ServiceError
from tournament.services.imports import event_file_read, event_import


class Command(BaseCommand):
    help = "Import an event file (CONTRACT §2). All or nothing; --replace to overwrite the slug."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--replace", action="store_true")

    def handle(self, *args, **options):
        # Every refusal is one line and exit status 2 (CONTRACT: errors name the field).
        try:
            data = event_file_read(Path(options["file"]))
            event = event_import(data, replace=options["replace"])
        except ServiceError as exc:
            raise CommandError(str(exc).replace("\n", " "), returncode=2) from None
        games = Game.objects.filter(round__event=event).count()
        self.stdout.write(f"imported {event.slug}: {event.entries.count()} players, {games} games")
