"""The pages anyone may read, one module per area: the front page, an event's standings and
their downloads, the venue screen and finding a seat, statistics, rounds, a game's sheet,
players, check-in, teams, series and ratings."""
