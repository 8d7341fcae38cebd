"""Django's PostgreSQL backend, with a connection's health checked without asking the server.

Django's check before a request reuses a kept connection (`conn_health_checks`, settings.py)
sends `SELECT 1` and waits for the answer: one round trip on every request, about a millisecond
of a sync worker's time on a busy machine — 6 % of gunicorn's samples on `make load`'s
1,024-player day (py-spy, docs/performance.md). What it is there to catch is a connection the
server dropped (a restart, `pg_terminate_backend`, an idle timeout): the server then sends its
last message and closes the socket, so an idle connection's socket with anything to read, or a
connection psycopg already knows is broken, is not reused. A healthy idle connection has
nothing to read: nothing here LISTENs, so no notification arrives unasked.

This is the backend interface Django documents for a backend of one's own (ENGINE names this
package; `DatabaseWrapper.is_usable` is what `close_if_health_check_failed` and
`close_if_unusable_or_obsolete` ask)."""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLWrapper
from psycopg import pq


class DatabaseWrapper(PostgreSQLWrapper):
    def is_usable(self) -> bool:
        conn = self.connection
        if conn is None or conn.closed or conn.broken:
            return False
        pgconn = conn.pgconn
        if pgconn.status != pq.ConnStatus.OK:
            return False
        if pgconn.transaction_status != pq.TransactionStatus.IDLE:
            # Inside a transaction or mid-query (not how a request finds its connection): ask.
            return super().is_usable()
        try:
            waiting = select.poll()
            waiting.register(pgconn.socket, select.POLLIN)
            return not waiting.poll(0)  # the server's farewell, its close or an error
        except (OSError, ValueError, psycopg.OperationalError):
            return False
