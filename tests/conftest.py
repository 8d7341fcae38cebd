import pytest
from django.core.cache import caches

from tournament.caching import clear_all

pytest_plugins = ["tests.redis_support"]  # the redis_server fixture: a Redis of a test's own


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Each test starts with nothing cached (ids repeat across rolled-back tests)."""
    clear_all()
    caches["guesses"].clear()  # wrong-guess counts (services/throttle.py) too
    yield
