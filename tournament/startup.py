"""What a production server checks once, as it starts, rather than failing every request."""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import ImproperlyConfigured

# Files every page links: the manifest must name each (`{% static %}` asks it per page).
LINKED = ("css/site.css", "js/live.js", "js/entry.js")


def check_static_manifest() -> None:
    """Production serves static files by their hashed names from STATIC_ROOT's manifest
    (whitenoise). Without it every page, the error page included, would fail as it is drawn:
    refuse to start instead, saying what to run."""
    if not settings.PRODUCTION:
        return  # development and tests serve static/ as it is
    try:
        for name in LINKED:
            staticfiles_storage.stored_name(name)
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"Static files are not collected in {settings.STATIC_ROOT} ({exc}). Run "
            "`manage.py collectstatic --no-input` first (`make serve` does), then start again."
        ) from None
