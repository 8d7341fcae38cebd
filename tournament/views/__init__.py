"""Pages, by area as pretix has them: `public` (anyone may read), `manage` (an event's
organizers and referees: set-up, players, rounds, stages, results), `table` (a table's own
phone, by its link and seat codes), with what several areas share beside them (the checked
query, organizer entry and the phone's past-hand fix, log-in, error pages). A view parses,
calls a service or a page selector, renders; rights are decided in `tournament.permissions`,
HTTP caching in `tournament.http_caching`."""
