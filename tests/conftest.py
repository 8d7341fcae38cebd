import pytest
from django.core.cache import caches
from django.utils import translation

from tournament.selectors.cache import clear_all

pytest_plugins = ["tests.redis_support"]  # the redis_server fixture: a Redis of a test's own


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Each test starts with nothing cached (ids repeat across rolled-back tests), in the
    site's own language (a request in Japanese leaves its thread in Japanese)."""
    translation.deactivate()
    clear_all()
    caches["guesses"].clear()  # wrong-guess counts (services/throttle.py) too
    yield


@pytest.fixture(autouse=True)
def _standings_in_step_with_the_games(request):
    """After every database test, each entry's kept figures (total, games, firsts, results)
    equal a recount from its seats: a write that changed seats, hands or results without
    `services.changes.results_changed` fails the test that made it (docs/standings.md)."""
    marker = request.node.get_closest_marker("django_db")
    names = set(request.fixturenames)
    if marker is None and not names & {"db", "transactional_db", "live_server"}:
        yield
        return
    wants_transactions = (marker is not None and marker.kwargs.get("transaction")) or (
        names & {"transactional_db", "live_server"}
    )
    # Set the database up before this fixture yields, so this check runs before it is reset.
    request.getfixturevalue("transactional_db" if wants_transactions else "db")
    yield
    from tournament.models import Entry, Seat
    from tournament.services.standings import EMPTY, FIGURE_FIELDS, count_figures

    wrong = []
    for event_id in Entry.objects.values_list("event_id", flat=True).distinct().order_by():
        seats = Seat.objects.filter(round__event_id=event_id, rank__isnull=False).order_by()
        figures = count_figures(seats.values_list(*FIGURE_FIELDS))
        for entry in Entry.objects.filter(event_id=event_id).only("player_id", *EMPTY):
            wanted = figures.get(entry.player_id, EMPTY)
            if any(getattr(entry, k) != v for k, v in wanted.items()):
                wrong.append((event_id, entry.player_id))
    assert wrong == [], "entries whose kept figures differ from a recount (event, player)"
