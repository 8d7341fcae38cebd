"""`manage.py backup` writes every event as an event file; `restore` into an empty database
gives back the same standings — withdrawals, substitutes and tie decisions included."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from tournament.models import AuditEntry, Entry, Event, Player, Stage, Venue
from tournament.selectors.standings import event_standings
from tournament.services.events import entry_withdraw

pytestmark = pytest.mark.django_db


def everything() -> dict[str, object]:
    """What a restore must give back: standings, flags of the entries, state of the stages."""
    return {
        e.slug: {
            "standings": event_standings(e).to_json(),
            "entries": sorted(
                Entry.objects.filter(event=e).values_list("player__name", "withdrawn", "substitute")
            ),
            "stages": list(e.stages.order_by("position").values("name", "closed", "decision")),
            "rules": e.ruleset_snapshot,
            "format": e.format,
        }
        for e in Event.objects.all()
    }


def test_backup_then_restore_into_an_empty_database_gives_the_same_standings(tmp_path, capsys):
    call_command("load_demo")
    baba = Event.objects.get(format="baba")  # its qualifier closed, its final in play
    # A withdrawal and a stand-in where players may still change (the league), a decision
    # kept on Baba's closed qualifier: all of it as the backup must keep.
    league = Event.objects.get(slug="jan-niki-league")
    entries = list(Entry.objects.filter(event=league).select_related("player", "event"))
    entry_withdraw(entry=entries[0])
    Entry.objects.filter(pk=entries[1].pk).update(substitute=True)  # stood in for someone
    qualifier = Stage.objects.get(event=baba, name="qualifier")
    named = Entry.objects.filter(event=baba).select_related("player")[:2]
    qualifier.decision = [e.player.name for e in named]
    qualifier.save()
    before = everything()
    assert len(before) >= 5

    call_command("backup", str(tmp_path / "backup"))
    files = sorted(p.name for p in (tmp_path / "backup").iterdir())
    assert files == sorted(f"{slug}.json" for slug in before)

    Event.objects.all().delete()
    Player.objects.all().delete()
    Venue.objects.all().delete()
    AuditEntry.objects.all().delete()
    call_command("restore", str(tmp_path / "backup"))
    assert "restored" in capsys.readouterr().out
    assert everything() == before


def test_a_bad_file_restores_nothing(tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    good = {"name": "A", "slug": "a", "players": ["P1", "P2", "P3", "P4"], "games": []}
    (folder / "a.json").write_text(json.dumps(good), encoding="utf-8")
    bad = {**good, "slug": "b", "entries": {"substitutes": ["Nobody"]}}
    (folder / "b.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(CommandError, match=r"b\.json: .*entries\.substitutes\[0\]"):
        call_command("restore", str(folder))
    assert not Event.objects.exists()
