"""What `make chaos` (bench/outage.py) sends at the server while a fault lasts: the organizer's
phone saving final scores through the real form, readers fetching pages, a watcher noting when
the standings last changed as the live fragment shows it (a later answer must never show
older ones),
each request sent once more when a killed worker drops its connection; and the small SMTP sink
that stands in for the mail server, keeping each mail's subject."""

from __future__ import annotations

import http.client
import random
import re
import socketserver
import threading
import time
import urllib.parse
from datetime import datetime
from http.cookies import SimpleCookie
from typing import Any

from bench.servers import standings_time

SLUG = "outage"
SCORES = [40000, 30000, 20000, 10000]


class MailSink(socketserver.ThreadingTCPServer):
    """Just enough SMTP to take Django's mail to ADMINS and keep each one's subject."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), SmtpSession)
        self.subjects: list[str] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return self.server_address[1]


class SmtpSession(socketserver.StreamRequestHandler):
    server: MailSink

    def handle(self) -> None:
        self.wfile.write(b"220 sink\r\n")
        for line in self.rfile:
            command = line[:4].upper()
            if command == b"DATA":
                self.wfile.write(b"354 go on\r\n")
                subject = ""
                for body_line in self.rfile:
                    if body_line.rstrip(b"\r\n") == b".":
                        break
                    if not subject and body_line.startswith(b"Subject:"):
                        subject = body_line[8:].decode(errors="replace").strip()
                self.server.subjects.append(subject)
                self.wfile.write(b"250 kept\r\n")
            elif command == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 ok\r\n")


class Phone:
    """A browser as far as the organizer screens need one: cookies (kept by hand, because the
    production cookies are Secure and this is plain HTTP behind a pretend TLS proxy), the CSRF
    token, no redirects followed."""

    port = 0  # the server's, set once it is chosen (main)

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        origin = f"https://127.0.0.1:{self.port}"
        headers = {"X-Forwarded-Proto": "https", "Origin": origin, "Referer": origin + path}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, response.read().decode()
        finally:
            connection.close()

    def fields(self, html: str) -> dict[str, str]:
        return dict(re.findall(r'name="(csrfmiddlewaretoken|version)" value="([^"]*)"', html))


# A connection dropped under a request (its worker killed) is sent again, as a phone does — its
# page asks again at its next refresh, its outbox sends a hand again — up to RESENDS times,
# RESEND_PAUSE apart: with a worker killed every second, a copy sent 0.2 s later once met the
# next killed worker too (docs/performance.md).
RESENDS, RESEND_PAUSE = 2, 0.5


def send(phone: Phone, method: str, path: str, form: dict | None = None) -> tuple[Any, str, bool]:
    """One request as a phone sends it: a connection dropped under it (a worker killed) is
    sent again. The status (or the error, as text), the page, and whether it was resent."""
    try:
        status, html = phone.request(method, path, form)
        return status, html, False
    except OSError as exc:
        failed = exc
    for _ in range(RESENDS):
        time.sleep(RESEND_PAUSE)
        try:
            status, html = phone.request(method, path, form)
            return status, html, True
        except OSError as exc:
            failed = exc
    return repr(failed), "", True


def writer(
    phone: Phone, games: dict, stop: threading.Event, log: list, saved: dict[str, list]
) -> None:
    rng = random.Random(3)
    base = f"/events/{SLUG}/manage/games/"
    while not stop.is_set():
        for pk, game in games.items():
            if stop.is_set():
                break
            status, html, resent = send(phone, "GET", f"{base}{pk}/scores/")
            if status != 200:
                log.append((time.monotonic(), "page", status, resent))
                time.sleep(0.2)
                continue
            scores = rng.sample(SCORES, 4)
            form = {**phone.fields(html), "deposits": "0"}
            for i, (name, score) in enumerate(zip(game["names"], scores, strict=True)):
                form[f"seat_{i}"], form[f"score_{i}"] = name, str(score)
            status, _, resent = send(phone, "POST", f"{base}{pk}/scores/", form)
            log.append((time.monotonic(), "save", status, resent))
            if status == 302:
                saved.setdefault(pk, []).append(scores)
            time.sleep(0.05)


def reader(paths: list[str], stop: threading.Event, log: list, seed: int) -> None:
    rng = random.Random(seed)
    phone = Phone()
    while not stop.is_set():
        status, _, resent = send(phone, "GET", rng.choice(paths))
        log.append((time.monotonic(), "read", status, resent))


def watcher(stop: threading.Event, seen: list[datetime]) -> None:
    """When the standings last changed, as the live fragment shows it, one answer after
    another (bench/servers.py `standings_time`): a later answer must never show older ones."""
    phone = Phone()
    while not stop.is_set():
        status, html, _ = send(phone, "GET", f"/events/{SLUG}/standings/live/")
        changed = standings_time(html) if status == 200 else None
        if changed is not None:
            seen.append(changed)
        time.sleep(0.02)
