"""Tasks for tests/tournament/test_task_worker.py: each appends a line to a file, so a test
sees what a worker process ran, and how many times."""

from __future__ import annotations

import time

from django_tasks import task


@task()
def note(path: str, line: str, sleep: float = 0.0) -> str:
    time.sleep(sleep)
    with open(path, "a") as out:
        out.write(line + "\n")
    return line
