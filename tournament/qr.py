"""QR codes drawn here as inline SVG (segno): printed or projected with the page, nothing
fetched from elsewhere (the round sheet's table links, the venue screen's addresses)."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, *, scale: int = 1, sized: bool = True) -> SafeString:
    """`url` as a QR code. `sized` False: no width or height, only a viewBox, so the page's
    CSS sizes it (the venue screen draws it in its own type size)."""
    return mark_safe(segno.make(url, error="m").svg_inline(scale=scale, omitsize=not sized))
