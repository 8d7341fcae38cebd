// The standings refresh themselves while an event runs: the table alone is fetched again and
// swapped in place (no page reload, the scroll position and the language stay).
"use strict";

(function () {
  const box = document.querySelector("[data-live]");
  if (!box || !window.fetch) return;
  const every = (parseInt(box.dataset.interval, 10) || 30) * 1000;
  async function refresh() {
    if (document.hidden) return; // a phone in a pocket does not poll
    try {
      const response = await fetch(box.dataset.live, { headers: { "X-Requested-With": "fetch" } });
      if (response.ok) box.innerHTML = await response.text();
    } catch (error) {
      // Offline for a moment: keep what is shown, try again at the next tick.
    }
  }
  setInterval(refresh, every);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
})();
