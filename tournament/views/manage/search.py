"""The organizer's search for a player by name, as a form's seat or penalty field is typed
(static/js/players.js fills the field's suggestions from it): at most SEARCH_MOST names, so a
form never carries the whole field of a large event (issue 46)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from scoring import ScoringError
from scoring.names import normalize_name
from tournament.i18n import error_text
from tournament.models import Event
from tournament.permissions import referee_required
from tournament.selectors.players import players_matching


@referee_required  # whoever may fill the forms that use it: organizers and referees
@require_GET
def player_search(request: HttpRequest, event: Event) -> JsonResponse:
    """`?q=` part of a name → {"names": [...]}: the players whose name holds it (any width,
    any case, spaces aside). Nothing typed finds nobody; what no name can hold (a control
    character, more than a name's length) is 400 with the reason."""
    typed = request.GET.get("q", "")
    try:
        part = normalize_name(typed, "q")
    except ScoringError as exc:
        if exc.code in ("name.player_empty", "name.invisible"):
            return JsonResponse({"names": []})
        return JsonResponse({"error": error_text(exc)}, status=400)
    return JsonResponse({"names": players_matching(event, part)})
