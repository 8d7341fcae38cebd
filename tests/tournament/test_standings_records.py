"""The standings' records: plain objects whose game columns are read when first asked for,
the table's fast cell reads equal to django-tables2's, and column renderers given what they
ask for (or refused by name)."""

from __future__ import annotations

import pytest
from django_tables2 import RequestConfig
from django_tables2.utils import Accessor

from tests.tournament.factories import league_data
from tournament.exports.html import PointsColumn, cell_getter
from tournament.exports.standings import StandingsRecord, standings_table
from tournament.selectors.standings import event_standings
from tournament.services.imports import event_import

pytestmark = pytest.mark.django_db


def _table(players: int = 16, rounds: int = 3):
    event = event_import(league_data(players, rounds))
    return event, standings_table(event_standings(event), players_per_table=4, whole=False)


def test_a_record_is_a_plain_object_with_its_columns_as_attributes():
    _event, table = _table()
    record = table.data.data[0]
    assert isinstance(record, StandingsRecord) and not isinstance(record, dict)
    assert "average_rank" not in vars(record)  # read when asked for, not before
    assert len(record.places) == 4 and sum(record.places) == record.games == 3
    assert len(record.rounds) == 3 and sum(record.rounds) == pytest.approx(record.total)
    assert record.average_rank == pytest.approx(
        sum(k * n for k, n in enumerate(record.places, start=1)) / record.games
    )


def test_the_fast_cell_read_is_django_tables2s_for_every_column(rf):
    _event, table = _table()
    RequestConfig(rf.get("/"), paginate={"per_page": 100}).configure(table)
    names = [bound.name for bound in table.columns]
    assert {"c1", "c4", "r1", "r3", "average_rank", "top_rate"} <= set(names)
    for bound in table.columns:
        get = cell_getter(bound.accessor)
        for row in table.paginated_rows:
            assert get(row.record) == Accessor(bound.accessor).resolve(row.record), bound.name


def test_a_column_whose_render_asks_for_the_record_gets_it(rf):
    class Marked(PointsColumn):
        def render(self, value, record):
            return f"{record.player}:{value}"

    event = event_import(league_data(8, 1))
    extra = [("total_marked", Marked(accessor="total", verbose_name="marked"))]
    table = standings_table(event_standings(event), players_per_table=4, whole=False)
    table = type(table)(table.data.data, extra_columns=[*_extra_of(table), *extra])
    RequestConfig(rf.get("/"), paginate={"per_page": 100}).configure(table)
    first = table.data.data[0]
    assert f"{first.player}:{first.total}" in table.body_html()


def test_a_column_whose_render_asks_for_anything_else_is_refused_by_name(rf):
    class Odd(PointsColumn):
        def render(self, value, bound_row):
            return value

    event = event_import(league_data(8, 1))
    table = standings_table(event_standings(event), players_per_table=4, whole=False)
    table = type(table)(table.data.data, extra_columns=[("odd", Odd(accessor="total"))])
    RequestConfig(rf.get("/"), paginate={"per_page": 100}).configure(table)
    with pytest.raises(TypeError, match="bound_row"):
        table.body_html()


def _extra_of(table):
    """The columns standings_table added to the class's own (places, rounds…)."""
    return [(b.name, b.column) for b in table.columns if b.name not in table.base_columns]
