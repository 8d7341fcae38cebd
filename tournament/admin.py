"""Django admin for every model: filters, search, and related rows loaded in one query."""

from __future__ import annotations

from django.contrib import admin

from tournament.models import (
    AuditEntry,
    Entry,
    Event,
    Game,
    Hand,
    Player,
    Round,
    Seat,
    Stage,
    Venue,
)


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "preset", "created_at"]
    list_filter = ["preset"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "format", "venue", "created_at"]
    list_filter = ["format", "venue"]
    search_fields = ["name", "slug"]
    list_select_related = ["venue"]
    filter_horizontal = ["organizers"]
    inlines = [StageInline, EntryInline]
    readonly_fields = ["ruleset_snapshot"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "withdrawn"]
    list_filter = ["withdrawn", "event"]
    search_fields = ["player__name", "event__name"]
    list_select_related = ["player", "event"]
    autocomplete_fields = ["player"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number"]
    list_filter = ["event"]
    search_fields = ["event__name"]
    list_select_related = ["event"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player", "score", "rank", "points", "chips"]
    readonly_fields = ["rank", "points", "chips"]
    autocomplete_fields = ["player"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read results here; record and correct games through the services (they re-derive)."""

    list_display = ["__str__", "mode", "finished", "version", "updated_at"]
    list_filter = ["mode", "finished", "round__event"]
    search_fields = ["round__event__name", "seats__player__name"]
    list_select_related = ["round__event"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["game", "position", "player", "score", "rank", "points", "chips"]
    list_filter = ["rank", "round__event"]
    search_fields = ["player__name", "round__event__name"]
    list_select_related = ["game__round__event", "player"]
    autocomplete_fields = ["player"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "label", "dealer", "honba", "deposits"]
    list_filter = ["game__round__event"]
    search_fields = ["game__round__event__name", "label"]
    list_select_related = ["game__round__event"]


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["event", "position", "name", "first_round", "last_round", "advance"]
    list_filter = ["event"]
    search_fields = ["event__name", "name"]
    list_select_related = ["event"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "event", "user", "action", "summary"]
    list_filter = ["action", "event"]
    search_fields = ["summary", "event__name", "user__username"]
    list_select_related = ["event", "user"]
    readonly_fields = ["created_at", "event", "user", "action", "summary", "before", "after"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
