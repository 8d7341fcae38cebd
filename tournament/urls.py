from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path, register_converter
from django.views.generic import RedirectView

from tournament import api, api_live, api_registration  # noqa: F401 (their endpoints join api)
from tournament.converters import (
    EventSlugConverter,
    ExportFormatConverter,
    StageActionConverter,
)
from tournament.views import accounts
from tournament.views.manage import (
    audit,
    dashboard,
    games,
    penalties,
    plans,
    players,
    rounds,
    search,
    signups,
    stages,
    tables,
)
from tournament.views.manage import channels as channels_manage
from tournament.views.manage import series as series_manage
from tournament.views.manage import settings as settings_manage
from tournament.views.manage import teams as teams_manage
from tournament.views.public import (
    checkin,
    home,
    overlay,
    ratings,
    screen,
    series,
    standings,
    statistics,
    stream,
    teams,
)
from tournament.views.public import games as game_pages
from tournament.views.public import players as player_pages
from tournament.views.public import push as push_views
from tournament.views.public import registration as registration_views
from tournament.views.public import rounds as round_pages
from tournament.views.table import app as table_app
from tournament.views.table import code as table_code
from tournament.views.table import page as table_page

register_converter(EventSlugConverter, "event")
register_converter(StageActionConverter, "stage_action")
register_converter(ExportFormatConverter, "export")

handler500 = "tournament.views.errors.server_error"

manage = [
    path("", dashboard.event_manage, name="event-manage"),
    path("players/", players.players_add, name="players-add"),
    path("players/<int:entry_id>/withdraw/", players.player_withdraw, name="player-withdraw"),
    path("players/<int:entry_id>/profile/", players.player_profile, name="player-profile"),
    path("ema.<export:fmt>", players.ema_download, name="ema-export"),
    path("players/search/", search.player_search, name="player-search"),
    path("rounds/", rounds.round_new, name="round-new"),
    path("checkin/", players.checkin_require_view, name="checkin-require"),
    path("signups/", signups.signups_manage, name="signups-manage"),
    path("entrants.<export:fmt>", signups.entrants_download, name="entrants-export"),
    path("checkin/<int:entry_id>/", players.checkin_mark_view, name="checkin-mark"),
    path("checkin/absent/", players.withdraw_absent_view, name="checkin-absent"),
    path("teams/", teams_manage.teams_edit, name="event-teams-edit"),
    path("channels/", channels_manage.channels_edit, name="event-channels"),
    path("settings/", settings_manage.event_settings, name="event-settings"),
    path("plan/", plans.plan_make_view, name="plan-make"),
    path("plan/upload/", plans.plan_upload_view, name="plan-upload"),
    path("plan/remove/", plans.plan_remove_view, name="plan-remove"),
    path("plan.<str:fmt>", plans.plan_download, name="plan-download"),
    path("rounds/<int:number>/", rounds.round_sheet, name="round-sheet"),
    path("rounds/<int:number>/unseat/", rounds.round_remove, name="round-unseat"),
    path("rounds/<int:number>/seats/", rounds.seats_swap_view, name="seats-swap"),
    path("rounds/<int:number>/tenhou/", rounds.round_tenhou, name="round-tenhou"),
    path(
        "stages/<int:position>/<stage_action:action>/",
        stages.stage_action,
        name="stage-action",
    ),
    path("games/new/", games.game_new, name="game-new"),
    path("games/<int:game_id>/scores/", games.game_scores, name="game-scores"),
    path("games/<int:game_id>/hands/", games.game_hands, name="game-hands"),
    path("games/<int:game_id>/undo/", games.game_undo, name="game-undo"),
    path("games/<int:game_id>/approve/", games.game_approve_view, name="game-approve"),
    path("games/<int:game_id>/link/", tables.table_link_new, name="table-link-new"),
    path("tables/", tables.table_states_live, name="table-states"),
    path("tables/entry/", tables.table_entry_set, name="table-entry"),
    # The table on stream (CONTRACT §9): the overlay without ?round=&table= follows it.
    path("games/<int:game_id>/feature/", tables.game_feature, name="game-feature"),
    path("tables/featured/stop/", tables.game_unfeature, name="game-unfeature"),
    path("tables/minutes/", rounds.round_minutes_set, name="round-minutes"),
    path("rounds/<int:number>/clock/", rounds.round_clock_view, name="round-clock"),
    path("games/<int:game_id>/extra/", rounds.game_extra_view, name="game-extra"),
    path("games/<int:game_id>/delete/", games.game_delete, name="game-delete"),
    path("audit/", audit.audit_log, name="event-audit"),
    path("network/release/", dashboard.network_release_view, name="network-release"),
    path("penalties/", penalties.penalties, name="penalties"),
    path(
        "penalties/<int:penalty_id>/cancel/", penalties.penalty_cancel_view, name="penalty-cancel"
    ),
]

urlpatterns = [
    path("api/v1/", api.api.urls),
    re_path(r"^api/(?P<rest>.*)$", api.not_found),
    path("", home.home, name="home"),
    path("events/new/", dashboard.event_new, name="event-new"),
    path("events/<event:slug>/", standings.event_detail, name="event-detail"),
    path("events/<event:slug>/rounds/<int:number>/", round_pages.round_detail, name="round-detail"),
    path(
        "events/<event:slug>/rounds/<int:number>/seating/",
        round_pages.round_seating_page,
        name="round-seating",
    ),
    path(
        "events/<event:slug>/games/<int:game_id>/", game_pages.game_detail_page, name="game-detail"
    ),
    path("players/<int:player_id>/", player_pages.player_detail, name="player-detail"),
    # Links shared before players had ids: found by name, sent on to the id.
    path("players/<path:name>/", player_pages.player_by_name, name="player-by-name"),
    path("events/<event:slug>/standings/live/", standings.standings_live, name="standings-live"),
    path("events/<event:slug>/standings/stream/", stream.standings_stream, name="standings-stream"),
    path("events/<event:slug>/screen/", screen.standings_screen, name="standings-screen"),
    path("events/<event:slug>/overlay/", overlay.event_overlay, name="event-overlay"),
    path("events/<event:slug>/seat/", screen.find_seat, name="find-seat"),
    path("events/<event:slug>/checkin/", checkin.event_checkin, name="event-checkin"),
    path("events/<event:slug>/register/", registration_views.signup_page, name="signup"),
    # Check your mail (issue 63): before the private links, whose tokens are never this short.
    path("events/<event:slug>/register/sent/", registration_views.signup_sent, name="signup-sent"),
    path(
        "events/<event:slug>/register/<str:token>/",
        registration_views.signup_entry,
        name="signup-entry",
    ),
    # Web Push to players (CONTRACT §7); the worker under /push/, a scope of its own.
    path("events/<event:slug>/push/", push_views.push_subscribe_view, name="push-subscribe"),
    path("events/<event:slug>/push/stop/", push_views.push_stop_view, name="push-stop"),
    path("push/sw.js", push_views.push_sw, name="push-sw"),
    path("events/<event:slug>/teams/", teams.teams_page, name="event-teams"),
    path("events/<event:slug>/teams/screen/", teams.teams_screen, name="teams-screen"),
    path("events/<event:slug>/teams/<int:team_id>/", teams.team_page, name="team-detail"),
    path("events/<event:slug>/teams.<export:fmt>", teams.teams_export, name="teams-export"),
    path(
        "events/<event:slug>/standings.<export:fmt>",
        standings.standings_export,
        name="standings-export",
    ),
    path("events/<event:slug>/stats/", statistics.event_statistics_page, name="event-statistics"),
    path("ratings/", ratings.ratings_page, name="ratings"),
    path("ratings.<export:fmt>", ratings.ratings_export, name="ratings-export"),
    path("series/new/", series_manage.series_new, name="series-new"),
    path("series/<str:slug>/", series.series_detail, name="series-detail"),
    path("series/<str:slug>/standings.<export:fmt>", series.series_export, name="series-export"),
    path("series/<str:slug>/manage/", series_manage.series_manage, name="series-manage"),
    path(
        "series/<str:slug>/manage/events/<int:event_id>/remove/",
        series_manage.series_event_remove,
        name="series-event-remove",
    ),
    path(
        "events/<event:slug>/stats.<export:fmt>",
        statistics.statistics_export,
        name="statistics-export",
    ),
    path("events/<event:slug>/manage/", include(manage)),
    # A table's own page: what its printed QR code opens (CONTRACT §3), or its code typed.
    path("t/", table_code.table_code, name="table-code"),
    path("t/sw.js", table_app.table_sw, name="table-sw"),
    path("t/<str:token>/", table_page.table_page, name="table-page"),
    path("t/<str:token>/manifest.webmanifest", table_app.table_manifest, name="table-manifest"),
    # A seat's own QR code, on its slip: the phone that scans it holds that seat.
    path("t/<str:token>/seat/<str:code>/", table_page.table_seat, name="table-seat"),
    path("t/<str:token>/stream/", stream.table_stream, name="table-stream"),
    path(
        "accounts/login/",
        accounts.LoginView.as_view(),
        name="login",
    ),
    # The address an organizer types from memory (helper-51 met a 404 there).
    path("login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # A log-in link by e-mail, the way in no lock closes (views/accounts.py); the admin's log-in
    # page links to it under the name Django's admin looks for.
    path("accounts/reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "admin/password_reset/",
        RedirectView.as_view(pattern_name="password_reset"),
        name="admin_password_reset",
    ),
    path(
        "accounts/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="registration/reset_sent.html"),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(template_name="registration/reset_done.html"),
        name="password_reset_complete",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    # The admin's log-in through the same lock as the site's (views/accounts.py), before
    # admin.site.urls, whose own log-in would count nothing.
    path("admin/login/", accounts.AdminLoginView.as_view(), name="admin-login"),
    path("admin/", admin.site.urls),
]
