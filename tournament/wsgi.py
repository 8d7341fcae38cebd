import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_wsgi_application()

# Everything loaded so far (Django, the apps, the URLconf) lives as long as the process: out of
# the collector's sight, so the full collections that a request making 10,000 standings rows
# sets off do not walk it again each time — they halved ranking a 10,000-player event on the
# bench machine (docs/performance.md). Python's own advice for long-lived servers.
gc.freeze()
