"""The one way a write hands work to the task queue (tournament/tasks.py): `enqueue_on_commit`.

Imports run one way: a task calls its service inside its body, and a service names the task
it queues here, by name, instead of importing tasks.py — so neither imports the other at load
time, and no service module imports tasks.py at all (tests/tournament/test_import_rules.py)."""

from __future__ import annotations

from functools import partial
from typing import Literal, get_args

from django.db import transaction
from django.utils.module_loading import import_string
from django_tasks_db import DatabaseBackend

# The tasks of tournament/tasks.py a write queues (a test holds each to its task there).
TaskName = Literal[
    "ratings_catch_up_task", "notifications_send_task", "registration_mail_task", "publish_task"
]
TASK_NAMES: tuple[str, ...] = get_args(TaskName)


def enqueue_on_commit(name: TaskName, *args: object) -> None:
    """The task `name` of tournament/tasks.py queued with `args` for the write under way. A
    queue kept in this database (django-tasks-db, the site's) takes it in the write's own
    transaction: one commit for both, and no task lost between them. Any other (the tests'
    immediate one, a queue elsewhere) once the write commits — before, its task would find
    no row; a queue that refuses it then is logged, never raised into a write already
    committed."""
    task = import_string(f"tournament.tasks.{name}")
    if isinstance(task.get_backend(), DatabaseBackend):
        task.enqueue(*args)
    else:
        transaction.on_commit(partial(task.enqueue, *args), robust=True)
