"""`manage.py notifications`: send the queued Web Push messages (CONTRACT §7)."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from tournament.services.channel_send import channel_posts_send
from tournament.services.push_send import notifications_send

POLL_SECONDS = 2  # the long-running form looks for new messages this often


class Command(BaseCommand):
    help = (
        "Send the queued Web Push messages to players' browsers and the organizer's channel "
        "posts. With --once: everything due "
        "now, then exit (messages to be tried again later stay queued). Without: keep "
        "sending as messages come, until stopped — for a site that does not run "
        "`manage.py db_worker`, whose task sends them otherwise."
    )

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="send what is due, then exit")

    def _posted(self) -> str:
        """The organizer's channel posts due sent too (issue 49), said when there were any."""
        posted = channel_posts_send()
        return f", {posted} posted to channels" if posted else ""

    def handle(self, *args, **options):
        if not settings.VAPID_PRIVATE_KEY:  # the channels' posts go all the same
            self.stderr.write(
                "no VAPID key, so no Web Push: set VAPID_PRIVATE_KEY or make .vapid-key "
                "(README 'Production')"
            )
        if options["once"]:
            self.stdout.write(f"{notifications_send()} sent{self._posted()}")
            return
        try:
            while True:
                sent, posted = notifications_send(), self._posted()
                if sent or posted:
                    self.stdout.write(f"{sent} sent{posted}")
                time.sleep(POLL_SECONDS)
        except KeyboardInterrupt:
            return
