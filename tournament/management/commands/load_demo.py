import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.demo import demo_events
from tournament.services.imports import event_import


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
        user.save()
        for data in demo_events():
            event = event_import(data, replace=True, user=user)
            event.organizers.add(user)
            self.stdout.write(f"loaded {event.slug}: {event.name}")
        self.stdout.write(
            self.style.SUCCESS(
                f"organizer account: username {user.username!r}, password {password!r}"
            )
        )
