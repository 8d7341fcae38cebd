"""Path converters: what the addresses of the site accept, and nothing else."""

from __future__ import annotations

import re

from tournament.exports.formats import FORMATS


class EventSlugConverter:
    """An event's address: letters of any script, digits, hyphens, underscores (水曜リーグ-11月),
    the same as `check_slug` lets in (services/events.py)."""

    regex = r"[-\w]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class StageActionConverter:
    """What an organizer can do to a stage; any other word is a 404, not a reopen."""

    regex = "decide|close|reopen"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class ExportFormatConverter:
    """A download's format: one the export pipeline writes (exports/formats.FORMATS); any other
    ending is a 404."""

    regex = "|".join(re.escape(slug) for slug in FORMATS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
