"""The organizer's channels screen (issue 49): where an event's seating, results and final
standings are posted. Thin: the form collects, services/channels.py checks and writes. The
URLs carry the channels' secrets: this screen is the only page that shows them."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.forms.channels import ChannelsForm
from tournament.models import Event
from tournament.permissions import organizer_required
from tournament.services.channels import channel_urls, channels_parse, channels_set
from tournament.services.errors import ServiceError


@organizer_required
@require_http_methods(["GET", "POST"])
def channels_edit(request: HttpRequest, event: Event) -> HttpResponse:
    """Set the event's channel URLs and their posts' language. A URL apprise does not know is
    refused, named by its line, and what was typed stays in the box."""
    saved = event.channels or {}
    initial = {
        "channels": "\n".join(channel_urls(event)),
        "language": saved.get("language") or ("ja" if get_language() == "ja" else "en"),
    }
    form = ChannelsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            urls = channels_parse(form.cleaned_data["channels"])
            channels_set(
                event=event,
                urls=urls,
                language=form.cleaned_data["language"],
                site=request.build_absolute_uri("/"),
                user=request.user,
            )
        except ServiceError as exc:
            for error in getattr(exc, "errors", [exc]):  # every bad line named (ChannelLinesError)
                form.add_service_error(error)
        else:
            messages.success(request, _("The channels are saved."))
            return redirect("event-channels", event.slug)
    # Kept by no cache on the way (organizer_required's never_cache): the URLs are secrets.
    return render(
        request,
        "tournament/manage/channels.html",
        {"event": event, "form": form},
        status=400 if form.is_bound else 200,
    )
