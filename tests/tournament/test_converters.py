"""The addresses' converters: what each accepts, resolved and reversed, and a 404 for the rest."""

from __future__ import annotations

import pytest
from django.urls import NoReverseMatch, Resolver404, resolve, reverse
from django.urls.converters import StringConverter
from django.utils.encoding import iri_to_uri

from tournament.converters import (
    EventSlugConverter,
    ExportFormatConverter,
    StageActionConverter,
)
from tournament.exports.formats import FORMATS


@pytest.mark.parametrize("slug", ["baba-2026", "水曜リーグ-11月", "under_score", "A1"])
def test_event_slug_resolves_and_reverses(slug: str) -> None:
    match = resolve(f"/events/{slug}/")
    assert match.url_name == "event-detail"
    assert match.kwargs == {"slug": slug}
    assert reverse("event-detail", kwargs={"slug": slug}) == iri_to_uri(f"/events/{slug}/")


@pytest.mark.parametrize("slug", ["a.b", "a b", "a%2Fb", "a~b"])
def test_event_slug_refuses_other_characters(slug: str) -> None:
    with pytest.raises(Resolver404):
        resolve(f"/events/{slug}/")
    with pytest.raises(NoReverseMatch):
        reverse("event-detail", kwargs={"slug": slug})


@pytest.mark.parametrize("action", ["decide", "close", "reopen"])
def test_stage_action_resolves_and_reverses(action: str) -> None:
    path = f"/events/baba/manage/stages/1/{action}/"
    match = resolve(path)
    assert (match.url_name, match.kwargs["action"]) == ("stage-action", action)
    assert reverse("stage-action", kwargs={"slug": "baba", "position": 1, "action": action}) == path


@pytest.mark.parametrize("action", ["delete", "Decide", "decided", "closereopen"])
def test_stage_action_refuses_other_words(action: str) -> None:
    with pytest.raises(Resolver404):
        resolve(f"/events/baba/manage/stages/1/{action}/")
    with pytest.raises(NoReverseMatch):
        reverse("stage-action", kwargs={"slug": "baba", "position": 1, "action": action})


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_export_format_resolves_and_reverses(fmt: str) -> None:
    path = f"/events/baba/teams.{fmt}"
    match = resolve(path)
    assert (match.url_name, match.kwargs["fmt"]) == ("teams-export", fmt)
    assert reverse("teams-export", kwargs={"slug": "baba", "fmt": fmt}) == path


@pytest.mark.parametrize("fmt", ["pdf", "CSV", "csvx", "csv.gz"])
def test_export_format_refuses_other_endings(fmt: str) -> None:
    with pytest.raises(Resolver404):
        resolve(f"/events/baba/teams.{fmt}")
    with pytest.raises(NoReverseMatch):
        reverse("teams-export", kwargs={"slug": "baba", "fmt": fmt})


@pytest.mark.parametrize(
    "converter", [EventSlugConverter, StageActionConverter, ExportFormatConverter]
)
def test_converters_are_only_a_pattern(converter: type[StringConverter]) -> None:
    # Django's own identity methods: no code of ours runs per address resolved or reversed.
    assert issubclass(converter, StringConverter)
    assert not {"to_python", "to_url"} & set(vars(converter))
