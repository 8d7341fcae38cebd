"""Log-in, throttled (services/accounts.py): the site's and the admin's, through one lock; and
the way in that no lock closes, a log-in link by e-mail (Django's password reset, which logs
the owner in once the new password is set)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.services.accounts import (
    login_failed,
    login_guess,
    login_succeeded,
    login_unlock,
    reset_guess,
)
from tournament.services.throttle import Throttled, client_network
from tournament.views.errors import stopped


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username", "")
        try:
            self.guess = login_guess(username, client_network(request))
        except Throttled as stop:
            # Not even checked: a locked account gives nothing away, right password or not.
            form = self.get_form_class()(request, initial={"username": username})
            locked = ngettext(
                "Too many failed log-ins. Try again in %(n)d minute.",
                "Too many failed log-ins. Try again in %(n)d minutes.",
                stop.minutes,
            ) % {"n": stop.minutes}
            context = self.get_context_data(form=form, locked=locked)
            return stopped(self.render_to_response(context, status=429), stop)
        return super().post(request, *args, **kwargs)

    def get_redirect_url(self) -> str:
        """`next`, unless it is this page itself: a signed-in user sent back here would loop
        (Django refuses that with a ValueError — a 500 for `?next=/accounts/login/`)."""
        url = super().get_redirect_url()
        return "" if url and urlsplit(url).path == self.request.path else url

    def form_invalid(self, form: Any) -> HttpResponse:
        login_failed(form.data.get("username", ""), client_network(self.request))
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


class PasswordResetView(auth_views.PasswordResetView):
    """A log-in link by e-mail: the organizer locked out (or without their password) gets in
    through their mailbox, which no count of wrong passwords closes. The answer is the same
    whether the address has an account or not (Django's); mails asked from one network and
    sent to one address are counted (services/accounts.py `reset_guess`)."""

    template_name = "registration/reset_form.html"
    email_template_name = "registration/reset_mail.txt"
    subject_template_name = "registration/reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form: Any) -> HttpResponse:
        try:
            send = reset_guess(form.cleaned_data["email"], client_network(self.request))
        except Throttled as stop:
            form.add_error(
                None,
                ngettext(
                    "Too many log-in links asked from this network. Try again in %(n)d minute.",
                    "Too many log-in links asked from this network. Try again in %(n)d minutes.",
                    stop.minutes,
                )
                % {"n": stop.minutes},
            )
            return stopped(
                self.render_to_response(self.get_context_data(form=form), status=429), stop
            )
        if not send:  # this address had its share: answered as sent, nothing sent
            return redirect(self.success_url)
        # A mail server that refuses is logged by Django's form, and answered as sent: the
        # answer never says whether an account has the address.
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """The link mailed: a new password, and the owner is logged in — and the lock their
    account met here lifted, so the new password logs in here next time too."""

    template_name = "registration/reset_confirm.html"
    post_reset_login = True
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        login_unlock(form.user.get_username(), client_network(self.request))
        return response
