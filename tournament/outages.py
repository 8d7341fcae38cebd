"""An outage logged without flooding the log: at most once a minute per process, each line
saying how many times it happened since the last (five seconds of PostgreSQL gone under load
had logged 10,824 tracebacks). The database's 503s (middleware.py) and Redis not answering
(redis_cache.py) both log through one of these."""

from __future__ import annotations

import threading
import time

LOG_SECONDS = 60.0


class OncePerMinute:
    def __init__(self) -> None:
        self.logged_at = -LOG_SECONDS
        self.since = 0
        self.lock = threading.Lock()

    def __call__(self) -> int | None:
        """Count one more; the count since the last line when it is time for a line, or None."""
        with self.lock:
            self.since += 1
            now = time.monotonic()
            if now - self.logged_at < LOG_SECONDS:
                return None
            self.logged_at, count, self.since = now, self.since, 0
            return count
