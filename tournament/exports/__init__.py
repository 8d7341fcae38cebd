"""The tables the site publishes, one module each (standings, teams, statistics, series,
ratings, plans): each declares its columns once (columns.Column: key, heading in the
reader's language, kind of value), and the files (formats.FORMATS: CSV, XLSX, JSON), the
pages' django-tables2 tables (html.py) and the API's answers are made from that declaration
and from the same records."""

# TEMPORARY (until the views move): the old names, for the views only.
from tournament.exports.formats import FORMATS  # noqa: F401
from tournament.exports.ratings import export_ratings  # noqa: F401
from tournament.exports.series import export_series  # noqa: F401
from tournament.exports.standings import export_standings  # noqa: F401
from tournament.exports.statistics import STAT_LABELS, export_statistics  # noqa: F401
from tournament.exports.teams import export_teams  # noqa: F401
