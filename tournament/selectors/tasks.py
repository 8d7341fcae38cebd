"""The task queue as the organizer's dashboard sees it: is it moving? (issue 63: a worker that
had died left the ratings "being brought up to date" forever, and nobody was told)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

# A task due this long and not taken: the worker is not running (it takes one within a second,
# and none of ours runs for minutes).
STALLED_AFTER = timedelta(minutes=2)


def task_queue_stalled_since() -> datetime | None:
    """When the longest-waiting task fell due, if that is more than STALLED_AFTER ago; None
    while the queue moves (one query, on the queue's index of tasks ready to run)."""
    before = timezone.now() - STALLED_AFTER
    due = Q(run_after__lte=before) | Q(run_after=get_date_max(), enqueued_at__lte=before)
    oldest = (
        DBTaskResult.objects.ready()
        .filter(due)
        .order_by("enqueued_at")
        .values_list("run_after", "enqueued_at")
        .first()
    )
    if oldest is None:
        return None
    run_after, enqueued_at = oldest
    return enqueued_at if run_after == get_date_max() else run_after
