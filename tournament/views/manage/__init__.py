"""The organizer's and referee's screens of an event, under /events/<slug>/manage/, one module
per area of the day's work (as pretix's control views): the dashboard, players and check-in,
rounds, stages, tables, result entry (games), penalties, the seating plan, the log, teams; and
a season's screens (series). Thin: forms collect, services write, selectors read; rights are
checked by the decorators (tournament/permissions.py)."""
