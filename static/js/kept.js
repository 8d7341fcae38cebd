// A table's page as the phone keeps it for a reload with no connection: the worker's copy of
// each page it loads (templates/tournament/table_sw.js) and outbox.js's first copy both go
// through here. Left out: a one-time message ("This phone is 東 at this table", "Hand 4
// recorded"), which belongs to the answer it came with — the phone would say it again. The
// round clock's "now" is the server's when the page was made, old by the time the copy is
// opened: renamed, so clock.js counts from the phone's own time (static/js/clock.js).
"use strict";

self.keptPage = async function (response) {
  const html = await response.text();
  const kept = html
    .replace(/<ul class="messages"[\s\S]*?<\/ul>/, "")
    .replace(/ data-now="/g, " data-kept-now=\"");
  // Its own headers would describe other bytes (length, encoding): the type alone.
  const type = response.headers.get("Content-Type") || "text/html; charset=utf-8";
  return new Response(kept, { status: 200, headers: { "Content-Type": type } });
};
