"""Model fields of the results."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import models

TENTH = Decimal("0.1")


class PointsField(models.DecimalField):
    """A result in points, kept to two decimals — a 3-player honba of 300 pays 150 a payer on a
    tsumo, so a score may end in 50: 1.15 points at 1,000 a point (Ruleset.points_places) — and
    read back with one where one is all it has (45.0, not 45.00), as every page and file shows
    it; the database hands back its column's two places."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("decimal_places", 2)
        super().__init__(*args, **kwargs)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Decimal | None:
        if value is None:
            return None
        exact = Decimal(value)
        tenths = exact.quantize(TENTH)
        return tenths if tenths == exact else exact
