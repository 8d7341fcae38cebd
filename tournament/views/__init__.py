"""Pages. `public`: anyone may read. `organize`: an event's set-up, players, rounds, stages.
`entry`: results for one table. Rights are checked in `tournament.permissions`."""
