"""Django admin: every model to read, with filters and search. What decides results — seats,
hands, rounds, stages, derived results — is read-only here: it is changed on the organizer
screens, whose services check it with the engine. The few writes left (an event's name and
organizers, a withdrawal, a player's name, deleting an event) go through services too, so each
is logged and moves the event's version on like any other change."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from scoring import ScoringError
from scoring.names import EVENT_NAME_MAX, normalize_name
from tournament.auditlog import action_label, entry_sentence
from tournament.i18n import error_text
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
from tournament.services.errors import ServiceError
from tournament.services.events import (
    entry_withdraw,
    event_organizers_set,
    event_referees_set,
    event_rename,
)
from tournament.services.imports import event_delete
from tournament.services.players import player_rename
from tournament.services.registration_list import reinstate_check
from tournament.services.stages import stage_require_open


class ReadOnly:
    """Shown, never written here (the organizer screens and their services write it)."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _name_field(value: Any, **kwargs: Any) -> str:
    try:
        return normalize_name(value, **kwargs)
    except ScoringError as exc:
        raise forms.ValidationError(error_text(exc)) from None


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    # A venue's rules are copied into each event when it is made: editing one changes no result.
    list_display = ["name", "slug", "preset", "created_at"]
    list_filter = ["preset"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name"]

    def clean_name(self) -> str:
        return _name_field(self.cleaned_data["name"])


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "created_at"]
    search_fields = ["name"]

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        if change:
            player_rename(player=obj, name=form.cleaned_data["name"], user=request.user)
        else:
            obj.save()  # a player in no event yet: no result can change

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # seats and entries keep players (PROTECT); unused ones harm nothing


class StageInline(ReadOnly, admin.TabularInline):
    model = Stage
    extra = 0


class EntryInline(ReadOnly, admin.TabularInline):
    model = Entry
    extra = 0


class EventForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = ["name", "organizers", "referees"]

    def clean_name(self) -> str:
        return _name_field(self.cleaned_data["name"], max_length=EVENT_NAME_MAX, event=True)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    form = EventForm
    list_display = ["name", "slug", "format", "venue", "created_at"]
    list_filter = ["format", "venue"]
    search_fields = ["name", "slug"]
    list_select_related = ["venue"]
    filter_horizontal = ["organizers", "referees"]
    inlines = [StageInline, EntryInline]
    fields = [
        "name",
        "slug",
        "venue",
        "format",
        "organizers",
        "referees",
        "version",
        "ruleset_snapshot",
    ]
    readonly_fields = ["slug", "venue", "format", "version", "ruleset_snapshot"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # "New event" on the home page makes its stages and registers players

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        # Never obj.save(): it would write back the version read when the page was opened.
        if "name" in form.changed_data:
            event_rename(event=obj, name=form.cleaned_data["name"], user=request.user)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # Organizers and referees are the relations written here; the inlines are read-only
        # (saving them writes nothing, but the admin's change message reads what they did).
        event_organizers_set(
            event=form.instance, users=list(form.cleaned_data["organizers"]), user=request.user
        )
        event_referees_set(
            event=form.instance, users=list(form.cleaned_data["referees"]), user=request.user
        )
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    def delete_model(self, request: HttpRequest, obj: Event) -> None:
        event_delete(event=obj, user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        for event in queryset:
            event_delete(event=event, user=request.user)


class EntryForm(forms.ModelForm):
    class Meta:
        model = Entry
        fields = ["withdrawn"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "withdrawn" in self.changed_data:
            try:
                stage_require_open(self.instance.event, entrants=True)
                if not data.get("withdrawn"):  # taken back: within the capacity (issue 50)
                    reinstate_check(self.instance)
            except ServiceError as exc:
                raise forms.ValidationError(error_text(exc)) from None
        return data


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    form = EntryForm
    list_display = ["player", "event", "withdrawn", "substitute"]
    list_filter = ["withdrawn", "event"]
    search_fields = ["player__name", "event__name"]
    list_select_related = ["player", "event"]
    fields = ["event", "player", "substitute", "withdrawn"]
    readonly_fields = ["event", "player", "substitute"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players are registered on the event's organizer screen

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a registered player's games would lose their owner; withdraw instead

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        entry_withdraw(entry=obj, withdrawn=form.cleaned_data["withdrawn"], user=request.user)


@admin.register(Round)
class RoundAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "number"]
    list_filter = ["event"]
    search_fields = ["event__name"]
    list_select_related = ["event"]


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player", "score", "rank", "points", "chips"]


@admin.register(Game)
class GameAdmin(ReadOnly, admin.ModelAdmin):
    """Read results here; record, correct and delete games on the organizer screens."""

    list_display = ["__str__", "mode", "finished", "version", "updated_at"]
    list_filter = ["mode", "finished", "round__event"]
    search_fields = ["round__event__name", "seats__player__name"]
    list_select_related = ["round__event"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["game", "position", "player", "score", "rank", "points", "chips"]
    list_filter = ["rank", "round__event"]
    search_fields = ["player__name", "round__event__name"]
    list_select_related = ["game__round__event", "player"]


@admin.register(Hand)
class HandAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["game", "number", "label", "dealer", "honba", "deposits"]
    list_filter = ["game__round__event"]
    search_fields = ["game__round__event__name", "label"]
    list_select_related = ["game__round__event"]


@admin.register(Stage)
class StageAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "position", "name", "first_round", "last_round", "advance", "closed"]
    list_filter = ["event"]
    search_fields = ["event__name", "name"]
    list_select_related = ["event"]


class ActionFilter(admin.SimpleListFilter):
    """The actions logged, each by its words (ペナルティ), not its code (penalty.give)."""

    title = _("action")
    parameter_name = "action"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        codes = AuditEntry.objects.order_by().values_list("action", flat=True).distinct()
        return sorted(((code, action_label(code)) for code in codes), key=lambda c: c[1])

    def queryset(self, request: HttpRequest, queryset: QuerySet[AuditEntry]) -> Any:
        return queryset.filter(action=self.value()) if self.value() else queryset


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, admin.ModelAdmin):
    # The change in words in the reader's language, as the event's change log says it (the
    # stored action code and English summary stay in the entry's own page).
    list_display = ["created_at", "event", "user", "action_words", "sentence"]
    list_filter = [ActionFilter, "event"]
    search_fields = ["summary", "event__name", "user__username"]
    list_select_related = ["event", "user"]

    class Media:
        css = {"all": ["css/admin.css"]}

    @admin.display(description=_("action"), ordering="action")
    def action_words(self, entry: AuditEntry) -> str:
        return action_label(entry.action)

    @admin.display(description=_("change"))
    def sentence(self, entry: AuditEntry) -> str:
        return entry_sentence(entry)
