"""TEMPORARY (until the views move): see tournament/exports/."""

from tournament.exports.series import series_table  # noqa: F401
from tournament.exports.standings import standings_sort_keys, standings_table  # noqa: F401
from tournament.exports.statistics import statistics_table  # noqa: F401
