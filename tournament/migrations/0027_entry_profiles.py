# Written by hand (issue 48): a player's profile in an event — EMA number, country, online
# names — and its constraints, as makemigrations writes them.

import django_countries.fields
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0026_hand_entry_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="ema_number",
            field=models.CharField(blank=True, default="", max_length=8, verbose_name="EMA number"),
        ),
        migrations.AddField(
            model_name="entry",
            name="country",
            field=django_countries.fields.CountryField(
                blank=True, default="", max_length=2, verbose_name="country"
            ),
        ),
        migrations.AddField(
            model_name="entry",
            name="tenhou_name",
            field=models.CharField(
                blank=True, default="", max_length=100, verbose_name="Tenhou name"
            ),
        ),
        migrations.AddField(
            model_name="entry",
            name="mahjongsoul_name",
            field=models.CharField(
                blank=True, default="", max_length=100, verbose_name="Mahjong Soul name"
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("ema_number", ""), ("ema_number__regex", "^[0-9]{8}$"), _connector="OR"
                ),
                name="tournament_entry_ema_number_8_digits",
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("tenhou_name", ""), _negated=True),
                fields=("event", "tenhou_name"),
                name="tournament_entry_unique_tenhou_name",
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("mahjongsoul_name", ""), _negated=True),
                fields=("event", "mahjongsoul_name"),
                name="tournament_entry_unique_mahjongsoul_name",
            ),
        ),
    ]
