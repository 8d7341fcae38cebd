// Pages that follow the game (issue 47): a table's page, the organizer's dashboard and round
// sheet, a game sheet, the standings. Each `[data-live]` region asks its address again every
// few seconds while the page is shown (never while it is hidden: a phone in a pocket costs
// nothing), sending the tag of what it shows; the server answers 304 from the game's or the
// event's version when nothing moved, so a quiet poll is one or two small queries. A poll is
// cheaper than server-sent events under gunicorn, whose workers would hold a thread per open
// phone (docs/performance.md, "Live pages"); the standings, which every player follows, and a
// table's page follow a stream instead where an ASGI server serves it (`data-stream`, below).
//
// What came back replaces the region, or each of its `[data-live-part]`s (by name) — except a
// part with a form someone is typing in (focus, or anything changed): that part stays as it
// is, with a line to tap to see the table as it is now, and its forms are marked stale (the
// server refuses a form of an older version anyway). A form that is swapped keeps its element
// (outbox.js holds it), only its content is new; `live:swapped` tells entry.js to fit it again.
// A page that no longer has the region (the game is over, the link closed) takes the whole
// page's content and stops.
"use strict";

(function () {
  if (!window.fetch || !window.DOMParser) return;
  const WRITABLE = "input:not([type=hidden]):not([type=radio]):not([type=checkbox]), textarea, select";

  function follow(box) {
    const url = box.dataset.live || location.pathname + location.search;
    const every = Math.max(parseInt(box.dataset.interval, 10) || 4, 2) * 1000;
    const dirty = new WeakSet(); // forms with something typed or tapped since they were shown
    const pending = new Map(); // part → its newer content, held while someone types there
    // The tag of the version the page was made from: the first look is 304 unless it moved.
    let tag = box.dataset.tag ? `"${box.dataset.tag}"` : null;
    let asking = false;
    let over = false;

    const mark = (event) => { const form = event.target.closest("form"); if (form) dirty.add(form); };
    box.addEventListener("input", mark);
    box.addEventListener("change", mark);
    box.addEventListener("reset", (event) => dirty.delete(event.target), true);

    function typing(part) {
      const active = document.activeElement;
      return Array.from(part.querySelectorAll("form")).some(
        (form) => dirty.has(form) || (active && form.contains(active) && active.matches(WRITABLE)),
      );
    }

    function key(form) {
      const action = form.querySelector("input[name=do]");
      return `${action ? action.value : ""}|${form.getAttribute("action") || ""}`;
    }

    function swap(part, fresh) {
      // The same forms stay the same elements: what scripts hold (the outbox's form) still works.
      const kept = new Map(Array.from(part.querySelectorAll("form"), (form) => [key(form), form]));
      for (const form of fresh.querySelectorAll("form")) {
        const old = kept.get(key(form));
        if (!old) continue;
        kept.delete(key(form));
        for (const attribute of Array.from(old.attributes)) old.removeAttribute(attribute.name);
        for (const attribute of Array.from(form.attributes)) old.setAttribute(attribute.name, attribute.value);
        old.replaceChildren(...form.childNodes);
        dirty.delete(old);
        form.replaceWith(old);
      }
      // An open <details> (the undo, "the result is wrong") stays open.
      const open = new Set(Array.from(part.querySelectorAll("details[open] > summary"), (s) => s.textContent));
      part.replaceChildren(...fresh.childNodes);
      part.querySelectorAll("details > summary").forEach((s) => { if (open.has(s.textContent)) s.parentNode.open = true; });
      pending.delete(part);
      forget();
      part.dispatchEvent(new CustomEvent("live:swapped", { bubbles: true }));
    }

    // A one-time line true only of the page as it was loaded ("Recorded: hand 3 … Undo"): once
    // the game has moved on, its Undo would open the undo of another hand. Gone with the
    // first change shown.
    function forget() {
      document.querySelectorAll("main > .messages [data-until-change]").forEach((line) => {
        const list = line.parentNode;
        line.remove();
        if (!list.children.length) list.remove();
      });
    }

    function hold(part, fresh) {
      pending.set(part, fresh);
      part.querySelectorAll("form").forEach((form) => { form.dataset.stale = ""; });
      if (part.querySelector(":scope > .live-changed")) return;
      const line = document.createElement("p");
      line.className = "card warning live-changed";
      line.setAttribute("role", "status");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = box.dataset.changed || "↻";
      button.addEventListener("click", () => { if (pending.has(part)) swap(part, pending.get(part)); });
      line.append(button);
      part.prepend(line);
    }

    // What a part says, and the versions its forms carry: the first look (no tag yet) finds
    // the page as it was loaded, which is no change to tell someone typing about.
    function said(part) {
      const kept = Array.from(part.querySelectorAll("input[type=hidden]:not([name=csrfmiddlewaretoken])"), (i) => i.value);
      return part.textContent.replace(/\s+/g, " ").trim() + kept.join(" ");
    }

    function offer(part, fresh) {
      if (said(part) === said(fresh) && !pending.has(part)) return;
      if (typing(part)) hold(part, fresh);
      else swap(part, fresh);
    }

    function take(html) {
      const page = new DOMParser().parseFromString(html, "text/html");
      const fresh = box.id ? page.getElementById(box.id) : null;
      const main = page.querySelector("main");
      if (!fresh && main) {
        // The region is gone (the game is over, the link closed, the round taken back): the
        // page as the server shows it now, and no more asking.
        over = true;
        document.querySelector("main").replaceChildren(...main.childNodes);
        if (page.title) document.title = page.title;
        return;
      }
      if (fresh && !fresh.hasAttribute("data-live")) over = true; // the game is over: shown once more
      const content = fresh || page.body;
      const parts = box.querySelectorAll("[data-live-part]");
      if (!parts.length) { offer(box, content); return; }
      for (const part of parts) {
        const next = content.querySelector(`[data-live-part="${part.dataset.livePart}"]`);
        if (next) offer(part, next);
      }
    }

    // Where the site streams (data-stream: tournament/streams.py), nothing is polled while the
    // stream is open. The standings' stream sends the page itself; a table's says only that
    // the table moved (`moved`), and the page is then asked as a poll asks it — its own, with
    // its seat and forms, 304 when nothing moved for this phone. A server that does not
    // stream answers 204, which closes the EventSource for good, and a dropped stream polls
    // until it is open again.
    let stream = null;
    let missed = false; // the table moved while the page was hidden: asked when it is shown
    let again = false; // it moved while a look was under way: asked once more after it
    let owed = false; // a look that got no answer (offline, a 503): the next tick asks again
    if (box.dataset.stream && window.EventSource) {
      stream = new EventSource(box.dataset.stream);
      stream.onmessage = (message) => {
        if (over) { stream.close(); return; }
        take(message.data);
        tag = `"${message.lastEventId}"`; // the page's tag: a poll after a drop sends it
      };
      stream.addEventListener("moved", () => {
        if (document.hidden) missed = true;
        else look(true);
      });
    }

    async function look(moved) {
      if (!moved && !owed && stream && stream.readyState === EventSource.OPEN) return;
      if (asking) { again = again || moved === true; return; }
      if (document.hidden || over) return;
      // A part held while someone typed there, left alone since (sent, cleared): shown now.
      for (const [part, fresh] of pending) if (!typing(part)) swap(part, fresh);
      asking = true;
      try {
        const headers = { "X-Requested-With": "fetch" };
        if (tag) headers["If-None-Match"] = tag;
        const response = await fetch(url, { headers, cache: "no-store", credentials: "same-origin", redirect: "manual" });
        owed = false;
        if (response.status === 304 || response.type === "opaqueredirect") return;
        if (response.ok || response.status === 404 || response.status === 410) {
          const html = await response.text();
          take(html);
          tag = response.ok ? response.headers.get("ETag") : null;
        } else {
          owed = true; // the server could not answer now (a 503 in an outage): asked again
        }
      } catch (error) {
        // Offline for a moment: keep what is shown, ask again at the next tick.
        owed = true;
      } finally {
        asking = false;
        if (over && stream) stream.close();
        if (again) { again = false; look(true); }
      }
    }

    setInterval(() => look(false), every);
    document.addEventListener("visibilitychange", () => {
      if (document.hidden) return;
      look(missed);
      missed = false;
    });
  }

  document.querySelectorAll("[data-live]").forEach(follow);
})();
