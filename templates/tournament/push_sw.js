{% autoescape off %}// The players' notifications (issue 49, CONTRACT §7): shows each Web Push message the site
// sends — JSON {"title", "body", "url"} in the player's language — and opens its url when the
// notification is tapped. Registered by static/js/push.js under /push/, a scope of its own.
"use strict";
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || "", {
      body: message.body || "",
      icon: "{{ icon }}",
      data: { url: message.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Only this site's pages: a url elsewhere opens the site's home instead.
  let url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === url.href && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url.href);
    }),
  );
});
{% endautoescape %}
