# The organizer's channels (issue 49): Event.channels and the posts waiting for them.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0028_push_notifications"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="channels",
            field=models.JSONField(blank=True, default=dict, verbose_name="channels"),
        ),
        migrations.CreateModel(
            name="ChannelPost",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("url", models.CharField(max_length=2000, verbose_name="channel URL")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("seated", "round seated"),
                            ("results", "round's results"),
                            ("final", "final standings"),
                        ],
                        max_length=10,
                        verbose_name="kind",
                    ),
                ),
                (
                    "attempts",
                    models.PositiveSmallIntegerField(default=0, verbose_name="attempts"),
                ),
                ("due_at", models.DateTimeField(verbose_name="due at")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created at")),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournament.event",
                        verbose_name="event",
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        to="tournament.round",
                        verbose_name="round",
                    ),
                ),
            ],
            options={
                "verbose_name": "channel post",
                "verbose_name_plural": "channel posts",
                "indexes": [
                    models.Index(fields=["due_at"], name="tournament_channelpost_due"),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("kind__in", ["seated", "results", "final"])),
                        name="tournament_channelpost_kind_known",
                    )
                ],
            },
        ),
    ]
