"""Log-in, throttled (services/accounts.py): the site's and the admin's, through one lock."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.services.accounts import login_failed, login_guess, login_succeeded
from tournament.services.throttle import Throttled, client_address


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username", "")
        try:
            self.guess = login_guess(username, client_address(request))
        except Throttled as stop:
            # Not even checked: a locked account gives nothing away, right password or not.
            form = self.get_form_class()(request, initial={"username": username})
            locked = ngettext(
                "Too many failed log-ins. Try again in %(n)d minute.",
                "Too many failed log-ins. Try again in %(n)d minutes.",
                stop.minutes,
            ) % {"n": stop.minutes}
            context = self.get_context_data(form=form, locked=locked)
            response = self.render_to_response(context, status=429)
            response["Retry-After"] = str(stop.seconds)
            return response
        return super().post(request, *args, **kwargs)

    def get_redirect_url(self) -> str:
        """`next`, unless it is this page itself: a signed-in user sent back here would loop
        (Django refuses that with a ValueError — a 500 for `?next=/accounts/login/`)."""
        url = super().get_redirect_url()
        return "" if url and urlsplit(url).path == self.request.path else url

    def form_invalid(self, form: Any) -> HttpResponse:
        login_failed(form.data.get("username", ""), client_address(self.request))
        return super().form_invalid(form)

    def form_valid(self, form: Any) -> HttpResponse:
        login_succeeded(self.guess)
        return super().form_valid(form)


class AdminLoginView(LoginView):
    """The admin's log-in page, as `admin.site.login` draws it, through the same lock."""

    template_name = "admin/throttled_login.html"
    authentication_form = AdminAuthenticationForm
    # A signed-in user who is not staff sees the form (Django's own admin does the same);
    # sending them on would loop between /admin/ and here.
    redirect_authenticated_user = False

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "GET" and admin.site.has_permission(request):
            return redirect("admin:index")
        return super().dispatch(request, *args, **kwargs)

    def get_default_redirect_url(self) -> str:
        return reverse("admin:index")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context.update(
            admin.site.each_context(self.request),
            title=_("Log in"),
            subtitle=None,
            app_path=self.request.get_full_path(),
            username=self.request.user.get_username(),
        )
        return context
