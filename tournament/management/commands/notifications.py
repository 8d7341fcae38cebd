"""`manage.py notifications`: send the queued Web Push messages (CONTRACT §7)."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from tournament.services.outboxes import Run, outboxes_send

POLL_SECONDS = 2  # the long-running form looks for new messages this often


class Command(BaseCommand):
    help = (
        "Send the queued Web Push messages to players' browsers and the organizer's channel "
        "posts. With --once: everything due "
        "now, then exit (messages to be tried again later stay queued). Without: keep "
        "sending as messages come, until stopped — for a site that does not run "
        "`manage.py task_worker`, whose task sends them otherwise."
    )

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="send what is due, then exit")

    def _said(self, run: Run) -> str:
        """The run in a line: the push messages sent, the channel posts when there were any
        (issue 49), and a kind that failed (its error is in the log)."""
        line = f"{run.sent.get('push', 0)} sent"
        if run.sent.get("channels"):
            line += f", {run.sent['channels']} posted to channels"
        if run.failed:
            line += f" ({', '.join(run.failed)} failed: see the log)"
        return line

    def handle(self, *args, **options):
        if not settings.VAPID_PRIVATE_KEY:  # the channels' posts go all the same
            self.stderr.write(
                "no VAPID key, so no Web Push: set VAPID_PRIVATE_KEY or make .vapid-key "
                "(README 'Production')"
            )
        if options["once"]:
            self.stdout.write(self._said(outboxes_send()))
            return
        try:
            while True:
                run = outboxes_send()
                if run.total or run.failed:
                    self.stdout.write(self._said(run))
                time.sleep(POLL_SECONDS)
        except KeyboardInterrupt:
            return
