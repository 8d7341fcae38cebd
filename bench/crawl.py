"""A crawl of every address the demo has — as a reader and as its organizer, in Japanese and in
English — each answer written to a folder, so that two crawls (before and after a change to
the read side, issue 65) can be diffed: `diff -r before/ after/` shows what a reader would see
change, and nothing else.

The demo (`manage.py load_demo`) is loaded into a fresh SQLite database under the tests'
settings (immediate tasks, in-memory caches), and a Django test client follows every link of
every page it is given, from `/` and each event's dashboard, GET only, on this site only,
never to the admin, log-out or static files. Each answer is kept as its status, content type
and body, with what changes from run to run taken out (CSRF tokens, request ids, the time of
day); a download is kept as its rows (an XLSX as its cells).

    python -m bench.crawl OUT_DIR [--most 1500]
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import os
import re
import sys
import tempfile
from collections import deque
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

ROOT = Path(__file__).resolve().parent.parent
SKIP = ("/admin/", "/static/", "/accounts/logout/", "/i18n/", "/media/")
LINK = re.compile(r"""(?:href|data-screen|data-live|data-src)="([^"]+)\"""")
# What differs between two runs of the same code: taken out before an answer is kept.
VOLATILE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), 'name="csrfmiddlewaretoken"'),
    (re.compile(r'csrf[-_]token" content="[^"]*"'), 'csrf-token"'),
    (re.compile(r"[0-9a-f]{12}(?=</code>|\b\s*\))"), "REQUEST-ID"),
    (re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?"), "TIMESTAMP"),
    (re.compile(r'data-(?:now|kept-now|since|started|ends)="[^"]*"'), "data-time"),
    (re.compile(r'data-reload-in="\d+"'), "data-reload-in"),
    (re.compile(r"/screen/\?key=[0-9a-f]+"), "/screen/?key=KEY"),
    (re.compile(r"/t/[A-Za-z0-9_-]{16,}/"), "/t/TOKEN/"),
    (re.compile(r"\b\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?"), "DATE TIME"),
    (re.compile(r"\b\d\d?:\d\d:\d\d\b"), "TIME"),
    (re.compile(r'data-tag="[^"]*"'), "data-tag"),  # a hash of the versions' times
]


def keep_name(path: str) -> str:
    """A file name for an address: readable, and unique by a hash of the whole address."""
    digest = hashlib.blake2b(path.encode(), digest_size=6).hexdigest()
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", path.strip("/"))[:80] or "home"
    return f"{readable}.{digest}"


def body_text(content_type: str, content: bytes) -> str:
    if "spreadsheetml" in content_type:
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(content), read_only=True)
        return "\n".join(
            f"{sheet.title}: " + "\t".join("" if v is None else str(v) for v in row)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
        )
    text = content.decode("utf-8", errors="replace")
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def links(page: str, base: str) -> list[str]:
    found = []
    for raw in LINK.findall(page):
        address = urldefrag(urljoin(base, html.unescape(raw)))[0]
        parts = urlsplit(address)
        if parts.netloc not in ("", "testserver") or not parts.path.startswith("/"):
            continue
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        if not path.startswith(SKIP):
            found.append(path)
    return found


def crawl(client, seeds: list[str], out: Path, language: str, most: int) -> int:
    seen, queue, kept = set(seeds), deque(seeds), 0
    out.mkdir(parents=True, exist_ok=True)
    while queue and kept < most:
        path = queue.popleft()
        answer = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        kind = answer.get("Content-Type", "")
        content = b"".join(answer.streaming_content) if answer.streaming else answer.content
        text = body_text(kind, content)
        where = answer.get("Location", "")
        (out / keep_name(path)).write_text(
            f"{path}\n{answer.status_code} {kind} {where}\n\n{text}", encoding="utf-8"
        )
        kept += 1
        if where:
            found = [where] if where.startswith("/") else []
        elif "html" in kind:
            found = links(text, path)
        else:
            found = []
        for link in found:
            if link not in seen and not link.startswith(SKIP):
                seen.add(link)
                queue.append(link)
    return kept


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--most", type=int, default=1500, help="answers kept per pass")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="crawl-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'crawl.sqlite3'}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from tournament.models import Event

    setup_test_environment()  # the test client's own ALLOWED_HOSTS and template signals
    call_command("migrate", verbosity=0)
    call_command("load_demo", stdout=io.StringIO())
    organizer = get_user_model().objects.get(username="organizer")
    manage = [f"/events/{slug}/manage/" for slug in Event.objects.values_list("slug", flat=True)]
    for who in ("reader", "organizer"):
        for language in ("ja", "en"):
            client = Client()
            if who == "organizer":
                client.force_login(organizer)
            seeds = ["/", "/api/v1/events"] + (manage if who == "organizer" else [])
            kept = crawl(client, seeds, args.out / f"{who}-{language}", language, args.most)
            print(f"{who} {language}: {kept} answers")


if __name__ == "__main__":
    main()
