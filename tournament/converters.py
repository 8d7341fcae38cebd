"""Path converters: what the addresses of the site accept, and nothing else.

Each is Django's StringConverter with its own `regex`: the value passes through unchanged, so
only the pattern says what is accepted, and no code of ours runs per address (resolved or
reversed)."""

from __future__ import annotations

import re

from django.urls.converters import StringConverter

from tournament.exports.formats import FORMATS


class EventSlugConverter(StringConverter):
    """An event's address: letters of any script, digits, hyphens, underscores (水曜リーグ-11月),
    the same as `check_slug` lets in (services/events.py)."""

    regex = r"[-\w]+"


class StageActionConverter(StringConverter):
    """What an organizer can do to a stage; any other word is a 404, not a reopen."""

    regex = "decide|close_early|close|reopen"


class ExportFormatConverter(StringConverter):
    """A download's format: one the export pipeline writes (exports/formats.FORMATS); any other
    ending is a 404."""

    regex = "|".join(re.escape(slug) for slug in FORMATS)
