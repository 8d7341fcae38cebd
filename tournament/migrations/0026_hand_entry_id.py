# Written by hand (issue 47): Hand.entry_id and its constraint, as makemigrations writes them.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0025_rating_due"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="entry_id",
            field=models.UUIDField(blank=True, null=True, verbose_name="entry id"),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                condition=models.Q(("entry_id__isnull", False)),
                fields=("game", "entry_id"),
                name="tournament_hand_one_per_entry",
            ),
        ),
    ]
