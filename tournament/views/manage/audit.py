"""The event's log: every write, who made it and when."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.auditlog import action_label, author, entry_sentence
from tournament.models import Event
from tournament.permissions import referee_required
from tournament.selectors.games import audit_list


@referee_required
def audit_log(request: HttpRequest, event: Event) -> HttpResponse:
    rows = [
        {
            "entry": e,
            "action": action_label(e.action),
            "sentence": entry_sentence(e),
            "author": author(e),
        }
        for e in audit_list(event)
    ]
    return render(request, "tournament/manage/audit.html", {"event": event, "rows": rows})
