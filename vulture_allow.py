# Names that look unused to vulture (`make test`, [tool.vulture] in pyproject.toml) because
# nothing in our Python calls them by name: Django, a library or a template does. vulture reads
# this file as code that uses them; nothing runs it, and ruff leaves it alone (none of these
# names is defined here). A name added here says who calls it; code that is merely unused is
# deleted instead. vulture matches by name only, so each name is listed once.

# Django reads these settings by name (tournament/settings.py).
ALLOWED_HOSTS, AUTH_PASSWORD_VALIDATORS, CACHES, CSRF_COOKIE_SECURE, CSRF_TRUSTED_ORIGINS
DEFAULT_AUTO_FIELD, DEFAULT_FROM_EMAIL, EMAIL_BACKEND, EMAIL_HOST, EMAIL_HOST_PASSWORD
EMAIL_HOST_USER, EMAIL_PORT, EMAIL_USE_TLS, FORM_RENDERER, INSTALLED_APPS, LANGUAGE_CODE
LOCALE_PATHS, LOGGING, LOGIN_REDIRECT_URL, LOGIN_URL, LOGOUT_REDIRECT_URL, MIDDLEWARE
ROOT_URLCONF, SECURE_CONTENT_TYPE_NOSNIFF, SECURE_CROSS_ORIGIN_OPENER_POLICY
SECURE_HSTS_INCLUDE_SUBDOMAINS, SECURE_HSTS_PRELOAD, SECURE_HSTS_SECONDS
SECURE_PROXY_SSL_HEADER, SECURE_REFERRER_POLICY, SECURE_SSL_REDIRECT, STATICFILES_DIRS
STATIC_URL, STORAGES, TEMPLATES, TIME_ZONE, USE_I18N, USE_TZ, WSGI_APPLICATION, X_FRAME_OPTIONS
# … and Django's apps: django-cors-headers, django-tables2, django-tasks, whitenoise.
CORS_ALLOW_ALL_ORIGINS, CORS_ALLOW_METHODS, CORS_URLS_REGEX, DJANGO_TABLES2_TEMPLATE, TASKS
WHITENOISE_AUTOREFRESH, WHITENOISE_USE_FINDERS

# Named in settings by a dotted string: the app, middleware, logging filters, form renderer,
# the WSGI application; urls.py's names and the handler500 view it names.
TournamentConfig, SecurityHeadersMiddleware, ApiErrorsAsJsonMiddleware, RefuseNulMiddleware
RequestIdMiddleware, TooManyFilesMiddleware, AnswerLoggedOnce, NotAnOutage, RequestIdFilter
FormRenderer, application, urlpatterns, handler500, server_error

# Django's hooks and options, read by name: a model's Meta, the admin's, a middleware's
# process_exception, a field's from_db_value (and the argument Django passes it), a URL
# converter's, a management command's, the auth views' and forms'.
Meta, abstract, constraints, indexes, ordering, verbose_name, verbose_name_plural
default_auto_field
Media, css, filter_horizontal, inlines, list_display, list_filter, list_select_related
prepopulated_fields, readonly_fields, search_fields, parameter_name, lookups, model_admin
save_model, save_related, delete_model, delete_queryset
process_exception, from_db_value, expression, regex
help, add_arguments, handle
authentication_form, redirect_authenticated_user, post_reset_login, get_default_redirect_url
allow_multiple_selected, is_staff
# A form field's option Django reads when it binds the form (forms/event_settings.py).
disabled
# A model field written and read through strings (update_fields, values_list, Q(...)).
cancelled_by, created_by, due_at, figures_version, mahjongsoul_name, mu_before, sigma_before
tenhou_name, featured_game

# Libraries' hooks: django-tables2 (a table's template, rows' attributes, the empty text; a
# paginator's page count), django-redis's cache methods, django-tasks' worker (its stop
# signal reads running_task), apprise's plugin options, django-ninja's schema fields, the
# standard library's socketserver (bench/outage.py's mail sink).
template_name, row_attrs, empty_text, num_pages
touch, has_key
running_task
redirects, overflow_mode
id, available, round_wind, riichi_sticks
daemon_threads
# Django's request: the path as its handler sets it (http_caching.page_made_for_readers).
path_info

# Read by templates: dataclass fields, properties and methods of what a view hands a page.
asks_unfinished, body_html, bust_fields, closable, colour, deposits_to_top, expected_total
fu_below, intro, last_x, last_y, mine_text, oka, pao_cols, replaceable, seat_cols
seat_rows, table_conditions, theirs_text, tie_form, to_lead, tsumo_block, tsumo_wins
type_cols, win_blocks, yakuman_rows, zero, mahjongsoul, tenhou
rounds_done, atamahane, seats_folded, seats_open
# The keys `{% cache %}` fragments are kept by: properties of a page's record in selectors/.
conditions_key, rating_key, sheet_key, tables_key
# A player page's section (selectors/player_page.PlayerSection), read by its template.
placing
# The dashboard's record (selectors/dashboard.DashboardPage): fields its template reads.
absent_count, screen_key
# The seating report's keys (selectors/plans.PlanReport, a TypedDict the template reads).
best_max_meetings, best_pairs_met_more_than_once, best_repeat_meetings, one_table
pairs_met_more_than_once, repeat_meetings, repeated_pairs, unbalanced

# Tests' hooks: what a test calls to do at once what the running site does later (the mail
# thread's queue, the ratings' queue) or to check the kept figures against the games.
flush_admin_mail, ratings_catch_up_all, event_results
# Every task name a write may queue (tests/tournament/test_import_rules.py checks each), and
# the task only a write's name for it reaches (services/queue.py).
TASK_NAMES, publish_task
