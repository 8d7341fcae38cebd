from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Event
from tournament.services.errors import ServiceError
from tournament.services.tenhou import LogFile, tenhou_import


class Command(BaseCommand):
    help = (
        "Record Tenhou game logs (mjlog XML or tenhou.net/6 JSON) as games of a round, players "
        "matched by name, every hand checked by the engine. All or nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("round", type=int, help="the round the games belong to")
        parser.add_argument("files", nargs="+", help="one or more game logs")

    def handle(self, *args, **options):
        # Every refusal is one line and exit status 2, like import_event (CONTRACT §2).
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"event: no event {options['event']!r}", returncode=2)
        files = []
        for name in options["files"]:
            path = Path(name)
            try:
                files.append(LogFile(path.name, path.read_bytes()))
            except OSError as exc:
                raise CommandError(f"{name}: {exc.strerror or exc}", returncode=2) from None
        try:
            games = tenhou_import(event=event, round_number=options["round"], files=files)
        except ServiceError as exc:  # the message names the file (and the hand) itself
            raise CommandError(exc.message.replace("\n", " "), returncode=2) from None
        for f, game in zip(files, games, strict=True):
            names = ", ".join(s.player.name for s in game.seats.order_by("position"))
            self.stdout.write(f"{f.name}: round {game.round.number} table {game.table} ({names})")
