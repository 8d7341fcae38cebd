from django.core.management.base import BaseCommand, CommandError

from tournament.models import Series
from tournament.services.ratings import ratings_rebuild


class Command(BaseCommand):
    help = (
        "Recompute ratings from the games, in the order they were played: the site's pool and "
        "every series' (or only the series named), clearing the replays they had due. The writes "
        "and the task queue keep them; this is for after an upgrade, or when they are doubted."
    )

    def add_arguments(self, parser):
        parser.add_argument("--series", action="append", default=[], metavar="SLUG")

    def handle(self, *args, **options):
        slugs = options["series"]
        pools = list(Series.objects.order_by("slug"))
        if slugs:
            pools = [s for s in pools if s.slug in slugs]
            missing = set(slugs) - {s.slug for s in pools}
            if missing:
                raise CommandError(f"series: no series {sorted(missing)[0]!r}", returncode=2)
        else:
            games = ratings_rebuild(None)
            self.stdout.write(f"site: {games} games rated")
        for series in pools:
            games = ratings_rebuild(series)
            self.stdout.write(f"{series.slug}: {games} games rated")
