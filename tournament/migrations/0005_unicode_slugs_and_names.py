"""Event addresses may use any script (水曜リーグ-11月); names stored before scoring.names
existed are brought to their one spelling, so what people type finds them."""

import logging

from django.db import migrations, models

logger = logging.getLogger(__name__)


def _clean(value: str, limit: int) -> str | None:
    from scoring import ScoringError
    from scoring.names import normalize_name

    try:
        return normalize_name(value, max_length=limit)
    except ScoringError:
        # A control character: drop it (it was never meant), then try again.
        kept = "".join(c for c in value if c.isprintable() or c.isspace())
        try:
            return normalize_name(kept, max_length=limit)
        except ScoringError:
            return None


def normalize_names(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    Event = apps.get_model("tournament", "Event")
    taken = set(Player.objects.values_list("name", flat=True))
    for player in Player.objects.order_by("pk"):
        name = _clean(player.name, 100)
        if name is None or name == player.name:
            continue
        if name in taken:  # two spellings of one name: left for a person to merge
            logger.warning("player %s: %r would become %r, which exists", player.pk, player.name, name)
            continue
        taken.discard(player.name)
        taken.add(name)
        player.name = name
        player.save(update_fields=["name"])
    for event in Event.objects.order_by("pk"):
        name = _clean(event.name, 200)
        if name is not None and name != event.name:
            event.name = name
            event.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0004_login_failures"),
    ]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="slug",
            field=models.SlugField(
                allow_unicode=True, max_length=80, unique=True, verbose_name="slug"
            ),
        ),
        migrations.RunPython(normalize_names, migrations.RunPython.noop),
    ]
