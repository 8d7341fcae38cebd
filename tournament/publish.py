"""What the task queue makes after a result (`publish_task`, tournament/tasks.py), so that the
readers who come next find it made instead of making it on their own request (issue 65: the
first reader after a result passed through 21 of our files, ranking and writing rows; issue
67: on a 1,024-player day that reader held one of two server workers for the whole render).

What it makes: the standings page in each language — the page every phone at the event
polls (`event-detail`, no query; the whole page kept by its tag, http_caching.py
`whole_page`) — and the standings files that scripts and broadcasters poll (the CSV download
and the API's JSON, exports/files.py `standings_file_ahead`), each while a reader polls it.
Nothing here is a cache of its own: each thing is made through the very function a reader's
request calls and kept under the stamp every reader asks for, so a reader who comes before
the worker makes it the same way, and the worker then finds it kept and makes nothing —
several results queued before it ran are made once, for the newest. A page or file nobody
polls on a day (a stage's tab, a sorted table, the XLSX, the statistics) is left to its first
reader.

Queued by `services/changes.results_changed` when what the standings page shows moved: the
rows (a result), or any hand in a stage's last round (what each player needs)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from tournament.exports.files import standings_file_ahead
from tournament.http_caching import page_made_for_readers
from tournament.selectors.events import event_by_id

# The files a reader may poll through the day (CONTRACT §2's standings as a download and the API's
# body); each holds no words, so one of each serves every language.
POLLED_FILES = ("csv", "json")


def publish(event_id: int) -> bool:
    """The event's standings page in every language and its polled files, each made unless
    kept already for what it shows now; False when the event is gone."""
    event = event_by_id(event_id)
    if event is None:
        return False
    page = reverse("event-detail", args=[event.slug])
    for language, _name in settings.LANGUAGES:
        page_made_for_readers(page, language)
    for fmt in POLLED_FILES:
        standings_file_ahead(event, fmt)  # while a reader polls it
    return True
