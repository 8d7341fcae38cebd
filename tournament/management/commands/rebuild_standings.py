from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.models import Event
from tournament.services.changes import standings_rebuild


class Command(BaseCommand):
    help = (
        "Recount the standings figures each entry keeps from the event's games (every event "
        "without a slug). The writes keep them; this is for when they are doubted."
    )

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", metavar="slug")

    def handle(self, *args, **options):
        events = Event.objects.order_by("slug")
        if options["slugs"]:
            events = events.filter(slug__in=options["slugs"])
            missing = set(options["slugs"]) - set(events.values_list("slug", flat=True))
            if missing:
                raise CommandError(f"slug: no event {sorted(missing)[0]!r}", returncode=2)
        for event in events:
            with transaction.atomic():
                changed = standings_rebuild(event)
            players = event.entries.count()
            self.stdout.write(f"{event.slug}: {players} players, {changed} figures corrected")
