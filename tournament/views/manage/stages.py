"""A stage's buttons: settle a tie at the cut, close it (early, too), open it again."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms.events import TieDecisionForm
from tournament.i18n import error_text, stage_label
from tournament.models import Event
from tournament.permissions import organizer_required
from tournament.selectors.events import stage_at
from tournament.selectors.standings import stage_result
from tournament.services.errors import ServiceError
from tournament.services.stages import (
    stage_close,
    stage_close_early,
    stage_decide,
    stage_reopen,
)
from tournament.views.manage.dashboard import dashboard_page


@organizer_required
@require_POST
def stage_action(request: HttpRequest, event: Event, position: int, action: str) -> HttpResponse:
    stage = stage_at(event, position)
    if stage is None:
        raise Http404
    try:
        if action == "decide":
            result = stage_result(event, stage.name)
            if result is None:
                raise ServiceError("stage.no_ranking", "decision")
            form = TieDecisionForm(request.POST, tied=[str(p) for p in result.to_settle])
            if not form.is_valid():
                return dashboard_page(request, event, tie_forms={stage.pk: form}, status=400)
            stage_decide(
                event=event, stage=stage, order=form.cleaned_data["order"], user=request.user
            )
            messages.success(request, _("The tie is settled."))
        elif action == "close":
            stage_close(event=event, stage=stage, user=request.user)
            said = _("The %(stage)s is closed.")  # 予選を締め切りました, never "qualifier"
            messages.success(request, said % {"stage": stage_label(stage.name)})
        elif action == "close_early":
            stage = stage_close_early(event=event, stage=stage, user=request.user)
            said = _("The %(stage)s is closed after round %(n)d.")
            messages.success(
                request, said % {"stage": stage_label(stage.name), "n": stage.last_round}
            )
        else:
            stage_reopen(event=event, stage=stage, user=request.user)
            said = _("The %(stage)s is open again.")
            messages.success(request, said % {"stage": stage_label(stage.name)})
    except ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect("event-manage", event.slug)
