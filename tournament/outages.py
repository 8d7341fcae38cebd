"""An outage (the database or Redis gone) logged without flooding the log or the admins' mail.

Per process: one line when it starts, at most one a minute while it lasts (saying how many
failures since the last), one when it ends; and one mail to ADMINS at its start and one at its
end, sent by a thread of the process, never inside the request that met the failure. Fifteen
seconds of PostgreSQL gone under load had logged 10,651 ERROR lines and, with ADMINS set,
mailed one "Service Unavailable" per refused request from inside that request.

The database's 503s (middleware.py) and Redis not answering (redis_cache.py) each keep one
`Outage`. Its lines carry `outage=True`, which the mail_admins handler leaves out
(settings.LOGGING): the outage mails itself, twice, through `notify_admins`.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
from datetime import datetime

from django.conf import settings
from django.core import mail

LOG_SECONDS = 60.0

mail_log = logging.getLogger("tournament.outages")


class NotAnOutage(logging.Filter):
    """On the mail_admins handler: an outage's lines are mailed by the outage itself (at its
    start and end, from a thread), not once per line from inside a request."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(record, "outage", False)


class Outage:
    """One kind of outage in this process: `failed()` at each failure, `ended()` when the
    service answers again (cheap when nothing is down: one attribute read). `ongoing` is read
    on every request (middleware.py) and every cache call (redis_cache.py): a plain attribute,
    so while nothing is down no code of this module runs for them."""

    def __init__(self, what: str, log: logging.Logger) -> None:
        self.what, self.log = what, log
        self.since: float | None = None  # monotonic time of the first failure, while down
        self.ongoing = False  # `since` is set: changed with it, under the lock
        self.logged_at = 0.0
        self.failures = 0  # since the last line
        self.total = 0  # since the start
        self.lock = threading.Lock()

    def failed(self, exception: BaseException, during: str = "") -> None:
        with self.lock:
            now = time.monotonic()
            self.failures += 1
            self.total += 1
            started = self.since is None
            if started:
                self.since, self.ongoing = now, True
            elif now - self.logged_at < LOG_SECONDS:
                return
            self.logged_at, count, self.failures = now, self.failures, 0
        cause = f"{type(exception).__name__}: {str(exception).strip()}"
        where = f" ({during})" if during else ""
        if started:
            self.log.error(
                "%s is unavailable%s: %s; the outage is logged once a minute in this process "
                "until it ends",
                self.what,
                where,
                cause,
                extra={"outage": True},
            )
            notify_admins(
                f"{self.what} is unavailable ({_here()})",
                f"{self.what} stopped answering in process {_here()}{where}:\n\n{cause}\n\n"
                "You get one more mail when it answers again.",
            )
            return
        self.log.error(
            "%s is still unavailable after %.0f s (%d failures in this process since the last "
            "such line): %s",
            self.what,
            now - (self.since or now),
            count,
            cause,
            extra={"outage": True},
        )

    def ended(self) -> None:
        if not self.ongoing:
            return
        with self.lock:
            since, total, self.since, self.total, self.failures = self.since, self.total, None, 0, 0
            self.ongoing = False
        if since is None:
            return  # another thread ended it first
        seconds = time.monotonic() - since
        self.log.warning(
            "%s answers again after %.0f s (%d failures in this process during the outage)",
            self.what,
            seconds,
            total,
            extra={"outage": True},
        )
        notify_admins(
            f"{self.what} answers again ({_here()})",
            f"{self.what} answers again in process {_here()} after {seconds:.0f} s "
            f"({total} failures in this process during the outage).",
        )


class QueueStalled(Exception):
    """The task queue has not moved: a task due minutes ago is not taken."""


task_queue_outage = Outage("The task queue", mail_log)


def task_queue_seen(stalled_since: datetime | None) -> None:
    """What a reader of the queue found (selectors/tasks.py): a stalled queue is an outage of
    its own, logged and mailed at its start and at its end like the database's."""
    if stalled_since is None:
        task_queue_outage.ended()
        return
    task_queue_outage.failed(
        QueueStalled(
            f"a task due since {stalled_since:%Y-%m-%d %H:%M:%S %Z} has not been taken: is "
            "`manage.py task_worker` running?"
        )
    )


def _here() -> str:
    return f"{socket.gethostname()} pid {os.getpid()}"


# --- Mail to ADMINS, from a thread of the process --------------------------------------------
# There is no task queue (yet): one daemon thread per process, started at the first mail, sends
# what was queued. `notify_admins` is the seam a task queue would replace.

_outbox: queue.Queue[tuple[str, str]] = queue.Queue()
_sender: threading.Thread | None = None
_sender_pid = 0
_sender_lock = threading.Lock()


def notify_admins(subject: str, body: str) -> None:
    """Mail ADMINS, later: queued for the process's mail thread; returns at once."""
    if settings.DEBUG or not settings.ADMINS:
        return  # as Django's mail_admins handler: nobody to tell, or a developer's machine
    _outbox.put((subject, body))
    _start_sender()


def _start_sender() -> None:
    global _sender, _sender_pid
    with _sender_lock:
        # A forked worker (gunicorn) does not inherit its parent's thread: start its own.
        if _sender is not None and _sender_pid == os.getpid() and _sender.is_alive():
            return
        _sender_pid = os.getpid()
        _sender = threading.Thread(target=_send_forever, name="notify-admins", daemon=True)
        _sender.start()


def _send_forever() -> None:
    while True:
        subject, body = _outbox.get()
        try:
            mail.mail_admins(subject, body)
        except Exception:  # a mail server down must not end the thread, nor be mailed about
            mail_log.warning(
                "could not mail the admins %r", subject, exc_info=True, extra={"outage": True}
            )
        finally:
            _outbox.task_done()


def flush_admin_mail() -> None:
    """Wait until every queued mail is sent (tests; a process about to stop)."""
    _outbox.join()
