"""A file from the export pipeline, as a download."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.http import content_disposition_header

from tournament.exports.formats import FORMATS


def download(data: bytes, fmt: str, name: str) -> HttpResponse:
    """A file from the export pipeline, saved as `name.fmt`. An address in Japanese needs
    RFC 6266's filename*= to reach the download intact."""
    response = HttpResponse(data, content_type=FORMATS[fmt].content_type)
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.{fmt}")
    return response
