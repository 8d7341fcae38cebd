{% autoescape off %}// A table's page, kept on the phone (issue 47, CONTRACT §3): the page shell and its static files
// precached by Workbox (vendored under static/vendor/, no CDN), and each table's page as last
// loaded — so a phone reloaded with no connection still opens its table, in its seat. Hands are
// never queued here: the page's own outbox (static/js/outbox.js) keeps and sends them.
"use strict";
importScripts({% for url in workbox %}"{{ url }}", {% endfor %}"{{ kept }}");
workbox.core.setCacheNameDetails({ prefix: "tables" });
self.skipWaiting();
workbox.core.clientsClaim();
workbox.precaching.cleanupOutdatedCaches();
workbox.precaching.precacheAndRoute([{% for file in shell %}
  { url: "{{ file.url }}", revision: "{{ file.revision }}" },{% endfor %}
]);
// What a copy leaves out, and why: static/js/kept.js (outbox.js keeps its first copy the same
// way). Only a whole page (200) is kept, as without this plugin.
const forLater = {
  cacheWillUpdate: async ({ response }) =>
    response && response.status === 200 ? self.keptPage(response.clone()) : null,
};
// A table's page (/t/<token>/): the network first, so a phone online always sees the table
// as it is; its copy, kept on each load, once the network fails or takes longer than 4 s.
workbox.routing.registerRoute(
  ({ request, url }) => request.mode === "navigate" && /^\/t\/[^/]+\/$/.test(url.pathname),
  // Its copy is this phone's own (the cookie it sent), whatever the page says it varies on.
  new workbox.strategies.NetworkFirst({
    cacheName: "tables-pages",
    networkTimeoutSeconds: 4,
    matchOptions: { ignoreVary: true },
    plugins: [forLater],
  }),
);
{% endautoescape %}
