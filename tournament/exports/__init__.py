"""The tables the site publishes, one module each (standings, teams, statistics, series,
ratings, plans): each declares its columns once (columns.Column: key, heading in the
reader's language, kind of value), and the files (formats.FORMATS: CSV, XLSX, JSON), the
pages' django-tables2 tables (html.py) and the API's answers are made from that declaration
and from the same records."""
