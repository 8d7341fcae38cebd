"""Work done beside the requests, through Django's task framework (DEP 14: `django_tasks`, the
backport of Django 6's `django.tasks`; settings.TASKS): queued in the site's database and run
by `manage.py task_worker` (`make demo`, `make serve`).

Imports run one way: each task imports its service inside its body, and a service queues a
task by its name (services/queue.py `enqueue_on_commit`), never by importing this module."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import DatabaseError
from django.utils import timezone
from django_tasks import task

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(seconds=10)


@task()
def ratings_catch_up_task(series_id: int | None) -> int | None:
    """A rating pool (the site's: None; or a series') replayed from the game its due row names,
    after a results write marked it (issue 46); how many games, None if nothing was due.
    Should the database refuse (SQLite's one writer busy past its timeout, a connection lost),
    the row stays and the task is queued again, so a quiet site does not wait for its next
    write to catch up."""
    from tournament.services.ratings import ratings_catch_up

    try:
        return ratings_catch_up(series_id)
    except DatabaseError:
        if ratings_catch_up_task.get_backend().supports_defer:
            later = ratings_catch_up_task.using(run_after=timezone.now() + RETRY_AFTER)
            later.enqueue(series_id)
        raise


@task()
def notifications_send_task() -> int:
    """The queued Web Push messages sent (services/push_send.py; CONTRACT §7) and the
    organizer's channel posts (services/channel_send.py), queued by the write that added
    them, each kind on its own (services/outboxes.py: one raising holds up neither the other
    nor its next run); how many. Rows to be tried again later: this task queued again for
    when the first is due."""
    from tournament.services.outboxes import outboxes_next, outboxes_send

    run = outboxes_send()
    due = outboxes_next(run)
    if due is not None and notifications_send_task.get_backend().supports_defer:
        notifications_send_task.using(run_after=max(due, timezone.now())).enqueue()
    return run.total


@task()
def registration_mail_task(signup_id: int, kind: str, tries: int = 0) -> bool:
    """A sign-up's e-mail (services/registration_mail.py): signed up, moved up, approved,
    refused. A mail server that refuses or does not answer (smtplib's errors are OSErrors) is
    tried again at the pace of the push messages (push_send.TRIES, again_at), then given up
    and logged once: the player still has the page their link shows. `tries`: the sends
    failed so far."""
    from tournament.services.push_send import TRIES, again_at
    from tournament.services.registration_mail import mail_send

    try:
        return mail_send(signup_id, kind)
    except OSError as exc:
        tries += 1
        if tries < TRIES and registration_mail_task.get_backend().supports_defer:
            later = registration_mail_task.using(run_after=again_at(timezone.now(), tries))
            later.enqueue(signup_id, kind, tries)
        else:
            log.warning(
                "sign-up mail: gave up the %s e-mail to sign-up %s after %s tries (%s)",
                kind,
                signup_id,
                tries,
                f"{type(exc).__name__}: {str(exc)[:200]}",
            )
        return False


@task()
def publish_task(event_id: int) -> bool:
    """The standings page and its polled files made after a result, for the readers who come
    next (tournament/publish.py); each is left as it is when kept already for what it shows.
    A database or cache that fails meanwhile costs nothing but this head start: the first
    reader makes what is missing, as before."""
    from tournament.publish import publish

    return publish(event_id)
