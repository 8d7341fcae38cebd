"""On the embedded database (SQLite), a transaction that reads and then writes waits for
another's write to finish instead of failing at once with "database is locked" (settings.py:
`transaction_mode` IMMEDIATE). The day's walk met it: a seating posted while the task worker
wrote answered 503. Run in a process of its own on a file database: the tests' in-memory
database shares one cache, where SQLite locks differently."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import threading, time
import django
django.setup()
from django.core.management import call_command
from django.db import connection, transaction
call_command("migrate", verbosity=0)
from tournament.models import Player
Player.objects.create(name="Held")

def holder():
    with transaction.atomic():
        Player.objects.filter(name="Held").update(name="Held")
        ready.set()
        time.sleep(0.5)
    connection.close()

ready = threading.Event()
thread = threading.Thread(target=holder)
thread.start()
ready.wait()
with transaction.atomic():
    Player.objects.count()  # a read first
    Player.objects.create(name="Second")  # then a write, while the other holds the lock
thread.join()
print(Player.objects.count())
"""


def test_a_read_then_write_waits_for_another_write(tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
        "DEBUG": "1",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("REDIS_URL", None)
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "2"
