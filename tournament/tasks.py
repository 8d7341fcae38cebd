"""Work done beside the requests, through Django's task framework (DEP 14: `django_tasks`, the
backport of Django 6's `django.tasks`; settings.TASKS): queued in the site's database and run
by `manage.py db_worker` (`make demo`, `make serve`)."""

from __future__ import annotations

from django_tasks import task

from tournament.services.ratings import ratings_catch_up


@task()
def ratings_catch_up_task(series_id: int | None) -> int | None:
    """A rating pool (the site's: None; or a series') replayed from the game its due row names,
    after a results write marked it (issue 46); how many games, None if nothing was due."""
    return ratings_catch_up(series_id)
