// The round clock: counts down to the time the server stored. The page says the server's
// "now" when it was made, so a phone whose clock is off still shows the venue's time left.
// One ticker for every clock on the page, found again each second: a clock swapped in by a
// refresh (the dashboard's tables, live.js) counts from its own "now".
"use strict";

(function () {
  // A page reopened from the phone's own copy with no connection (a table's worker keeps it,
  // templates/tournament/table_sw.js, which renames its "now" data-kept-now) was made earlier:
  // its "now" is old. It counts with the difference the last page from the server measured,
  // kept on the phone, or else with the phone's own clock.
  const KEY = "jansou-clock-offset";
  function offsetOf(clock) {
    if (!clock.dataset.now) {
      try { return parseInt(localStorage.getItem(KEY), 10) || 0; } catch (error) { return 0; }
    }
    const offset = Date.parse(clock.dataset.now) - Date.now();
    try { localStorage.setItem(KEY, String(offset)); } catch (error) { /* private mode */ }
    return offset;
  }

  function tick() {
    for (const clock of document.querySelectorAll("[data-clock]")) {
      if (!clock.dataset.offset) {
        clock.dataset.offset = String(offsetOf(clock));
      }
      const ends = Date.parse(clock.dataset.ends);
      const offset = parseInt(clock.dataset.offset, 10);
      // Rounded up: zero only once the server's time is up too (its form refuses earlier).
      const seconds = Math.max(0, Math.ceil((ends - (Date.now() + offset)) / 1000));
      const left = clock.querySelector("[data-left]");
      if (left) left.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
      const running = clock.querySelector("[data-running]");
      const up = clock.querySelector("[data-up]");
      if (running) running.hidden = seconds === 0;
      if (up) up.hidden = seconds > 0;
      clock.classList.toggle("up", seconds === 0);
      // The hand form's "the game ends after this hand" appears when time runs out.
      for (const choice of document.querySelectorAll("[data-time-up]")) {
        choice.hidden = seconds > 0;
      }
    }
  }
  tick();
  setInterval(tick, 1000);
})();
