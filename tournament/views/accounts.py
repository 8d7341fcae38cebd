"""Log-in, throttled (services/accounts.py)."""

from __future__ import annotations

import ipaddress
import math
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from tournament.services.accounts import login_failed, login_succeeded, login_wait


def _ip(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """The caller's address. Behind our own proxy (BEHIND_PROXY), the one it appended last to
    X-Forwarded-For — the only entry it vouches for; the rest is whatever the client sent.
    Without BEHIND_PROXY the header is ignored. A forwarded entry that is not an address
    falls back to the connection's own, so garbage never switches the address limit off."""
    own = _ip(request.META.get("REMOTE_ADDR", ""))
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1]
        return _ip(forwarded) or own
    return own


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username", "")
        wait = login_wait(username, client_address(request))
        if wait is not None:
            # Not even checked: a locked account gives nothing away, right password or not.
            form = self.get_form_class()(request, initial={"username": username})
            minutes = math.ceil(wait.total_seconds() / 60)
            locked = ngettext(
                "Too many failed log-ins. Try again in %(n)d minute.",
                "Too many failed log-ins. Try again in %(n)d minutes.",
                minutes,
            ) % {"n": minutes}
            context = self.get_context_data(form=form, locked=locked)
            response = self.render_to_response(context, status=429)
            response["Retry-After"] = str(math.ceil(wait.total_seconds()))
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        login_failed(form.data.get("username", ""), client_address(self.request))
        return super().form_invalid(form)

    def form_valid(self, form: Any) -> HttpResponse:
        login_succeeded(form.get_user().get_username())
        return super().form_valid(form)
