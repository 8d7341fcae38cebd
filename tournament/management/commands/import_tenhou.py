from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Event
from tournament.services.errors import ServiceError
from tournament.services.profiles import PLATFORMS
from tournament.services.tenhou import LogFile, tenhou_import


class Command(BaseCommand):
    help = (
        "Record Tenhou game logs (mjlog XML or tenhou.net/6 JSON) as games of a round, every "
        "hand checked by the engine. All or nothing. A log's nickname is the player who has it "
        "as their Tenhou or Mahjong Soul name (the organizer's player page, or `profiles` in "
        "the event file), else the player of that name."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("round", type=int, help="the round the games belong to")
        parser.add_argument("files", nargs="+", help="one or more game logs")
        parser.add_argument(
            "--platform",
            choices=list(PLATFORMS),
            help="whose nicknames the logs hold (default: Tenhou's for an mjlog; for "
            "tenhou.net/6 JSON, Mahjong Soul's in an event on a Mahjong Soul ruleset, else "
            "Tenhou's)",
        )

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
            games = tenhou_import(
                event=event,
                round_number=options["round"],
                files=files,
                platform=options["platform"],
            )
        except ServiceError as exc:  # the message names the file (and the hand) itself
            raise CommandError(exc.message.replace("\n", " "), returncode=2) from None
        for f, game in zip(files, games, strict=True):
            names = ", ".join(s.player.name for s in game.seats.order_by("position"))
            self.stdout.write(f"{f.name}: round {game.round.number} table {game.table} ({names})")
