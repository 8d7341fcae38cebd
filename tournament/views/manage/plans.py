"""The whole-day seating plan (services/plans.py): made, uploaded, removed, downloaded."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament.exports.files import plan_file
from tournament.exports.plans import PLAN_FORMATS
from tournament.forms.events import (
    PlanMakeForm,
    PlanUploadForm,
)
from tournament.models import Event
from tournament.permissions import (
    organizer_required,
    referee_required,
)
from tournament.services.errors import ServiceError
from tournament.services.plans import PLAN_MAX_BYTES, plan_make, plan_remove, plan_upload
from tournament.views.manage.dashboard import dashboard_page
from tournament.views.public.downloads import download


@organizer_required
@require_POST
def plan_make_view(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlanMakeForm(request.POST)
    if form.is_valid():
        seed = form.cleaned_data["seed"]
        if seed is None:
            seed = secrets.randbelow(2**31)
        try:
            plan_make(event=event, rounds=form.cleaned_data["rounds"], seed=seed, user=request.user)
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(
                request, _("The seating plan is made (seed %(seed)d).") % {"seed": seed}
            )
            return redirect(reverse("event-manage", args=[event.slug]) + "#plan-h")
    return dashboard_page(request, event, plan_form=form, status=400)


@organizer_required
@require_POST
def plan_upload_view(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlanUploadForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            plan_upload(
                event=event,
                content=upload.read(PLAN_MAX_BYTES + 1),
                name=upload.name,
                user=request.user,
            )
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("The seating plan is uploaded and checked."))
            return redirect(reverse("event-manage", args=[event.slug]) + "#plan-h")
    return dashboard_page(request, event, upload_form=form, status=400)


@organizer_required
@require_POST
def plan_remove_view(request: HttpRequest, event: Event) -> HttpResponse:
    plan_remove(event=event, user=request.user)
    messages.success(request, _("The seating plan is removed."))
    return redirect("event-manage", event.slug)


@referee_required
@require_GET
def plan_download(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """The plan as CSV (rows services/plans reads back) or JSON (CONTRACT §5's document),
    through the export pipeline (exports/plans.py)."""
    data = plan_file(event, fmt) if fmt in PLAN_FORMATS else None
    if data is None:  # no plan kept, or a format the plan is not read back from
        raise Http404
    return download(data, fmt, f"{event.slug}-seating-plan")
