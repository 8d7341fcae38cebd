import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_wsgi_application()

from tournament.startup import check_static_manifest  # noqa: E402 (needs the apps loaded)

check_static_manifest()  # a server without its static files stops here, saying why

# Everything loaded so far (Django, the apps, the URLconf) lives as long as the process: out of
# the collector's sight, so the full collections that a request making 10,000 standings rows
# sets off do not walk it again each time — they halved ranking a 10,000-player event on the
# bench machine (docs/performance.md). Python's own advice for long-lived servers.
gc.freeze()
