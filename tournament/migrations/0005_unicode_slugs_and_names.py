"""Event addresses may use any script (水曜リーグ-11月); names stored before scoring.names
existed are brought to their one spelling, so what people type finds them."""

import logging
import unicodedata

from django.db import migrations, models

logger = logging.getLogger(__name__)


def _spelling(value: str, limit: int) -> str | None:
    """scoring.names.normalize_name as it stood, frozen here (a migration must not follow the
    engine's code of today); None where it refused the name."""
    if any(c not in "\t\n\r" and unicodedata.category(c) in ("Cc", "Cs") for c in value):
        return None  # a control character
    folded = unicodedata.normalize("NFKC", value)
    name = " ".join("".join(c for c in folded if unicodedata.category(c) != "Cf").split())
    return name if name and len(name) <= limit else None


def _clean(value: str, limit: int) -> str | None:
    name = _spelling(value, limit)
    if name is None:
        # A control character: drop it (it was never meant), then try again.
        kept = "".join(c for c in value if c.isprintable() or c.isspace())
        name = _spelling(kept, limit)
    return name


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
