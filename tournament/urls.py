from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path, register_converter

from tournament import api
from tournament.converters import (
    EventSlugConverter,
    ExportFormatConverter,
    StageActionConverter,
)
from tournament.views import accounts, entry, organize, public, ratings, series, table, teams

register_converter(EventSlugConverter, "event")
register_converter(StageActionConverter, "stage_action")
register_converter(ExportFormatConverter, "export")

handler500 = "tournament.views.errors.server_error"

manage = [
    path("", organize.event_manage, name="event-manage"),
    path("players/", organize.players_add, name="players-add"),
    path("players/<int:entry_id>/withdraw/", organize.player_withdraw, name="player-withdraw"),
    path("rounds/", organize.round_new, name="round-new"),
    path("checkin/", organize.checkin_require_view, name="checkin-require"),
    path("checkin/<int:entry_id>/", organize.checkin_mark_view, name="checkin-mark"),
    path("checkin/absent/", organize.withdraw_absent_view, name="checkin-absent"),
    path("teams/", teams.teams_edit, name="event-teams-edit"),
    path("plan/", organize.plan_make_view, name="plan-make"),
    path("plan/upload/", organize.plan_upload_view, name="plan-upload"),
    path("plan/remove/", organize.plan_remove_view, name="plan-remove"),
    path("plan.<str:fmt>", organize.plan_download, name="plan-download"),
    path("rounds/<int:number>/", organize.round_sheet, name="round-sheet"),
    path("rounds/<int:number>/unseat/", organize.round_remove, name="round-unseat"),
    path("rounds/<int:number>/seats/", organize.seats_swap_view, name="seats-swap"),
    path("rounds/<int:number>/tenhou/", organize.round_tenhou, name="round-tenhou"),
    path(
        "stages/<int:position>/<stage_action:action>/",
        organize.stage_action,
        name="stage-action",
    ),
    path("games/new/", entry.game_new, name="game-new"),
    path("games/<int:game_id>/scores/", entry.game_scores, name="game-scores"),
    path("games/<int:game_id>/hands/", entry.game_hands, name="game-hands"),
    path("games/<int:game_id>/undo/", entry.game_undo, name="game-undo"),
    path("games/<int:game_id>/approve/", entry.game_approve_view, name="game-approve"),
    path("games/<int:game_id>/link/", organize.table_link_new, name="table-link-new"),
    path("tables/", organize.table_states_live, name="table-states"),
    path("tables/entry/", organize.table_entry_set, name="table-entry"),
    path("tables/minutes/", organize.round_minutes_set, name="round-minutes"),
    path("rounds/<int:number>/clock/", organize.round_clock_view, name="round-clock"),
    path("games/<int:game_id>/extra/", organize.game_extra_view, name="game-extra"),
    path("games/<int:game_id>/delete/", entry.game_delete, name="game-delete"),
    path("audit/", organize.audit_log, name="event-audit"),
    path("network/release/", organize.network_release_view, name="network-release"),
    path("penalties/", organize.penalties, name="penalties"),
    path("penalties/<int:penalty_id>/cancel/", organize.penalty_cancel_view, name="penalty-cancel"),
]

urlpatterns = [
    path("api/v1/", api.api.urls),
    re_path(r"^api/(?P<rest>.*)$", api.not_found),
    path("", public.home, name="home"),
    path("events/new/", organize.event_new, name="event-new"),
    path("events/<event:slug>/", public.event_detail, name="event-detail"),
    path("events/<event:slug>/rounds/<int:number>/", public.round_detail, name="round-detail"),
    path(
        "events/<event:slug>/rounds/<int:number>/seating/",
        public.round_seating_page,
        name="round-seating",
    ),
    path("events/<event:slug>/games/<int:game_id>/", public.game_detail_page, name="game-detail"),
    path("players/<int:player_id>/", public.player_detail, name="player-detail"),
    # Links shared before players had ids: found by name, sent on to the id.
    path("players/<path:name>/", public.player_by_name, name="player-by-name"),
    path("events/<event:slug>/standings/live/", public.standings_live, name="standings-live"),
    path("events/<event:slug>/screen/", public.standings_screen, name="standings-screen"),
    path("events/<event:slug>/seat/", public.find_seat, name="find-seat"),
    path("events/<event:slug>/checkin/", public.event_checkin, name="event-checkin"),
    path("events/<event:slug>/teams/", teams.teams_page, name="event-teams"),
    path("events/<event:slug>/teams/screen/", teams.teams_screen, name="teams-screen"),
    path("events/<event:slug>/teams/<int:team_id>/", teams.team_page, name="team-detail"),
    path("events/<event:slug>/teams.<export:fmt>", teams.teams_export, name="teams-export"),
    path(
        "events/<event:slug>/standings.<export:fmt>",
        public.standings_export,
        name="standings-export",
    ),
    path("events/<event:slug>/stats/", public.event_statistics_page, name="event-statistics"),
    path("ratings/", ratings.ratings_page, name="ratings"),
    path("ratings.<export:fmt>", ratings.ratings_export, name="ratings-export"),
    path("series/new/", series.series_new, name="series-new"),
    path("series/<str:slug>/", series.series_detail, name="series-detail"),
    path("series/<str:slug>/standings.<export:fmt>", series.series_export, name="series-export"),
    path("series/<str:slug>/manage/", series.series_manage, name="series-manage"),
    path(
        "series/<str:slug>/manage/events/<int:event_id>/remove/",
        series.series_event_remove,
        name="series-event-remove",
    ),
    path(
        "events/<event:slug>/stats.<export:fmt>", public.statistics_export, name="statistics-export"
    ),
    path("events/<event:slug>/manage/", include(manage)),
    # A table's own page: what its printed QR code opens (CONTRACT §3), or its code typed.
    path("t/", table.table_code, name="table-code"),
    path("t/<str:token>/", table.table_page, name="table-page"),
    # A seat's own QR code, on its slip: the phone that scans it holds that seat.
    path("t/<str:token>/seat/<str:code>/", table.table_seat, name="table-seat"),
    path(
        "accounts/login/",
        accounts.LoginView.as_view(),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The admin's log-in through the same lock as the site's (views/accounts.py), before
    # admin.site.urls, whose own log-in would count nothing.
    path("admin/login/", accounts.AdminLoginView.as_view(), name="admin-login"),
    path("admin/", admin.site.urls),
]
