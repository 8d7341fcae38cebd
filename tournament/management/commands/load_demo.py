import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.demo import demo_events
from tournament.models import Event, Game, Series
from tournament.services.events import event_table_entry_set
from tournament.services.hands import game_hand_undo
from tournament.services.imports import event_import
from tournament.services.series import series_add_event, series_create
from tournament.services.stages import stage_close
from tournament.services.tables import table_link_renew


def mid_final(event: Event, user: object) -> None:
    """The Baba demo at a moment of a real day (issue 66: all eight rounds played and no stage
    closed, its dashboard offered a ninth): the qualifier closed after its six rounds, the
    final's first hanchan played, its last at its last hand — South 4, the conditions shown
    on the standings, the venue screen, the game's sheet and the table's phone. The table
    enters its own hands (the walks of 2026-11-29 and -30 found no demo table with a link):
    the round's sheet holds the final's table link and seat codes, so a newcomer plays the
    last hand on a phone and confirms it from a second seat's."""
    stage_close(event=event, stage=event.stages.order_by("position").first(), user=user)
    event_table_entry_set(event=event, table_entry="tables", table_mode="hands", user=user)
    game = Game.objects.get(round__event=event, round__number=8)
    game_hand_undo(game=game, expected_version=game.version, user=user)
    table_link_renew(game=game, user=user)


class Command(BaseCommand):
    help = "Load one demo event per seed venue (replacing earlier demo events) and an organizer."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="organizer")

    @transaction.atomic
    def handle(self, *args, **options):
        user_model = get_user_model()
        user, _ = user_model.objects.get_or_create(username=options["username"])
        password = secrets.token_urlsafe(9)
        user.set_password(password)
        user.is_staff = user.is_superuser = True  # the demo organizer may also use the admin
        # An address, so the log-in link by e-mail reaches the demo's console (DEBUG prints mail).
        user.email = user.email or f"{user.username}@example.org"
        user.save()
        for data in demo_events():
            event = event_import(data, replace=True, user=user)
            event.organizers.add(user)
            if event.slug == "baba-demo":
                mid_final(event, user)
            self.stdout.write(f"loaded {event.slug}: {event.name}")
        # A season over the 4-player riichi demo nights: each player's best two count.
        Series.objects.filter(slug="demo-season").delete()
        season = series_create(
            name="デモ シーズン 2026", slug="demo-season", rule="best", best_of=2, user=user
        )
        for slug in ("jan-niki-league", "hyper-club-night", "baba-demo"):
            series_add_event(series=season, slug=slug)
        self.stdout.write(f"loaded {season.slug}: {season.name}")
        self.stdout.write(
            self.style.SUCCESS(
                f"organizer account: username {user.username!r}, password {password!r}"
            )
        )
