"""The organizer's channels form (issue 49): the event's channel URLs, one a line, and the
language its posts are written in."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.forms.base import ServiceForm
from tournament.models.push import LANGUAGE_CHOICES


class ChannelsForm(ServiceForm):
    channels = forms.CharField(
        label=_("Channel URLs"),
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 4, "autocomplete": "off", "spellcheck": "false", "autocapitalize": "off"}
        ),
        help_text=_(
            "One a line, as apprise writes them: a Discord or Slack webhook's address as the "
            "service gives it, tgram://bot_token/chat_id for Telegram, "
            "mailtos://user:password@example.com for e-mail. Empty the box to post nowhere."
        ),
    )
    language = forms.ChoiceField(label=_("Posts written in"), choices=LANGUAGE_CHOICES)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.paths.update({"channels": "channels", "language": "language"})
        # Every line in view without scrolling the box, up to a screenful: the errors above it
        # name lines by number (up to CHANNELS_MOST channels, and a blank line or two).
        typed = self.data.get("channels") if self.is_bound else self.initial.get("channels")
        lines = len(str(typed or "").splitlines())
        self.fields["channels"].widget.attrs["rows"] = min(14, max(4, lines + 1))
