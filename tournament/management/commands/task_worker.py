"""`manage.py task_worker`: the task queue's worker — django_tasks_db's `db_worker`, with its
options, that outlives an outage of the database (issue 63: a 20-second PostgreSQL outage
ended `db_worker` for good, 3 workers of 3, and with it the ratings, sign-up mails, push
messages and channel posts).

`db_worker` raises whatever the database raises while it claims or settles a task. Here the
worker catches it, logs the outage once at its start and once at its end (tournament/outages.py,
as the app servers do, mailed to ADMINS), tries the database again every few seconds, and goes
on where it stopped. A task that was running when the database went is put back in the queue
(its row still says RUNNING, and no worker would take it again): tasks here are written to be
run again (each works from rows it settles itself), so one that had finished runs once more.
Redis needs nothing of this: the cache answers from memory while it is away (redis_cache.py).
A worker that dies anyway is started again by `make serve` (and, in production, by what runs
it: README "Production")."""

from __future__ import annotations

import contextlib
import logging
import os
import time
from typing import Any

from django.core.management.base import CommandError
from django.db import DatabaseError, connection
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from tournament.outages import Outage

log = logging.getLogger("tournament.task_worker")

# Seconds between tries while the database is away: the first soon (a restart takes seconds),
# then one every RETRY_MOST at most — a connection tried every 5 s costs the database nothing,
# and the queue goes on within 5 s of its return (bench/outage.py; at 15 s the worker came
# back 7 s after the app servers).
RETRY_FIRST, RETRY_MOST = 1.0, 5.0

database_outage = Outage("The database (task worker)", log)


class Worker(db_worker.Worker):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claimed: DBTaskResult | None = None  # the task this worker runs, if any

    def run_task(self, db_task_result: DBTaskResult) -> None:
        self.claimed = db_task_result
        super().run_task(db_task_result)  # raises only if the database failed to settle it
        self.claimed = None

    def run(self) -> None:
        while True:
            try:
                super().run()
                return  # --batch or --max-tasks: done
            except DatabaseError as exc:
                database_outage.failed(exc, "task worker")
                if not self._wait_for_database():
                    return  # told to stop meanwhile

    def _wait_for_database(self) -> bool:
        """Try the database until it answers (True), or the worker is told to stop (False);
        then put back the task that was running when it went."""
        wait = RETRY_FIRST
        while self.running:
            self.running_task = False  # a stop signal ends the worker at once while it waits
            time.sleep(wait)
            self.running_task = True  # … and lets the put-back finish once it answers
            with contextlib.suppress(DatabaseError):
                connection.close()  # a connection the outage broke is never reused
            try:
                connection.ensure_connection()
                self._put_back()
            except DatabaseError as exc:
                database_outage.failed(exc, "task worker")
                wait = min(wait * 2, RETRY_MOST)
                continue
            finally:
                self.running_task = False
            database_outage.ended()
            return True
        return False

    def _put_back(self) -> None:
        if self.claimed is None:
            return
        running = DBTaskResult.objects.filter(pk=self.claimed.pk, status=TaskResultStatus.RUNNING)
        if running.update(status=TaskResultStatus.READY, started_at=None):
            log.warning(
                "task worker: task %s (%s) was running when the database went; queued again",
                self.claimed.pk,
                self.claimed.task_path,
            )
        self.claimed = None


class Command(db_worker.Command):
    help = "Run the task queue's worker, which outlives an outage of the database"

    def handle(self, **options: Any) -> None:
        """db_worker's, with this module's Worker."""
        self.configure_logging(options["verbosity"])
        reload = options["reload"] and not options["batch"]
        queue_names = options["queue_name"].split(",")
        excluded = options["exclude_queues"].split(",") if options["exclude_queues"] else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_names,
            interval=options["interval"],
            batch=options["batch"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
            excluded_queue_names=excluded,
        )
        if not reload:
            worker.configure_signals()
            worker.run()
            return
        if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
            worker.configure_signals()  # the child the reloader runs
        run_with_reloader(worker.run)
