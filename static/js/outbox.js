// A table's page when the venue's Wi-Fi drops (issue 47, CONTRACT §3). Every hand this phone
// records gets an entry_id (a random UUID) and the number of the hand it is for, and goes to an
// outbox on the phone (IndexedDB, through the vendored `idb`) before it is sent; it leaves the
// outbox only once the server has answered it saved. Sent in the order recorded, as soon as the
// connection is back: the `online` event, the page shown again, and a timer (not every browser
// has Background Sync). The server writes one hand per entry however often it arrives, so a
// send whose answer was lost is simply sent again. A conflict (409) or a refused hand (400)
// opens the server's own answer for that hand, and the hands after it wait for the person's
// choice. Without this file (or IndexedDB) the form posts as it always did.
"use strict";

(function () {
  const box = document.querySelector("[data-outbox]");
  if (!box || !window.fetch || !window.indexedDB || !window.idb || !self.keptPage) return;
  const page = box.dataset.page;
  const form = document.querySelector("form[data-hand]");
  const count = box.querySelector("[data-count]");
  const why = box.querySelector("[data-why]");
  const sent = box.querySelector("[data-sent]");
  const EVERY = 15000; // ms between tries while hands wait
  const PATIENCE = 15000; // ms a send may take before it counts as failed (and is kept)

  // The page shell and this table's page kept on the phone: it opens here with no connection.
  if ("serviceWorker" in navigator) {
    // The page is kept once the worker is ready: unless the worker fetched it already (a
    // page it did not fetch — the first visit, one reached by a redirect after the seat's
    // code — is not kept), fetched again into the cache; a fetch that fails (a venue's Wi-Fi)
    // is tried again, three times in all.
    const keep = (tries) => caches.open("tables-pages").then(async (cache) => {
      if (await cache.match(page, { ignoreVary: true })) return;
      const response = await fetch(page, { credentials: "same-origin" });
      if (response.status !== 200) throw new Error(`not kept: ${response.status}`);
      await cache.put(page, await self.keptPage(response)); // as the worker keeps it (kept.js)
    }).catch(() => {
      if (tries > 1) setTimeout(() => keep(tries - 1), 5000);
    });
    navigator.serviceWorker.register(box.dataset.sw).then(() => navigator.serviceWorker.ready).then(() => {
      if (window.caches) keep(3);
    }).catch(() => {});
  }

  const db = idb.openDB("table-outbox", 1, {
    upgrade(database) {
      const hands = database.createObjectStore("hands", { keyPath: "seq", autoIncrement: true });
      hands.createIndex("page", "page");
    },
  });
  async function queued() {
    // In the order of the hands, then as recorded: a hand sent back for correction (400) and
    // saved again goes before the later ones that waited for it.
    const hands = await (await db).getAllFromIndex("hands", "page", page);
    return hands.sort((a, b) => a.number - b.number || a.seq - b.seq);
  }

  function uuid() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  // What the line says: how many wait, and why (`state`: offline, sending, seat, held).
  let state = "offline";
  async function show() {
    const hands = await queued();
    const n = hands.length;
    box.hidden = n === 0 && sent.hidden;
    count.hidden = n === 0;
    count.textContent = (n === 1 ? box.dataset.one : box.dataset.other).replace("{n}", n);
    why.textContent = n === 0 ? "" : box.dataset[state === "held" ? "heldWhy" : state];
    // The next hand's name (東2局 1本場) is the server's to say once the waiting hands are in:
    // until then the page names it by its number alone, never by a label that may be wrong.
    const next = document.querySelector(".next.card");
    if (next) next.hidden = n > 0;
    // Taking back "the last hand" means the server's last while hands wait here: the undo
    // (and the banner's link to it) would name a hand the phone has moved past. Gone till sent.
    document.querySelectorAll("details.undo, [data-undo-link]").forEach((el) => { el.hidden = n > 0; });
    const record = form && form.querySelector(".record button[type=submit]");
    if (record) {
      record.dataset.label = record.dataset.label || record.textContent;
      // A page opened again while hands wait (reloaded with no connection) was made before
      // them: the next hand is after the last one waiting, not the one the page was made for.
      const number = numberInput();
      if (n > 0 && !held) number.value = String(nextNumber(hands, parseInt(number.value, 10) || 1));
      record.textContent = n > 0 ? box.dataset.record.replace("{n}", number.value) : record.dataset.label;
    }
  }

  // The hand a new one is: the form's own, or the one after the last hand waiting here.
  function nextNumber(hands, typed) {
    return Math.max(typed, ...hands.map((h) => h.number + 1));
  }

  // A conflict or refused hand on screen (the server's answer): the later hands wait for the
  // person's choice, which reloads the page.
  let held = box.dataset.held === "1";
  if (held) state = "held";
  let sending = false;
  let typing = false; // a hand being typed: a send in the background never reloads over it

  function post(fields) {
    // The page's own CSRF token, fresher than the one kept with an old hand.
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    const body = new URLSearchParams();
    for (const [name, value] of fields) {
      body.append(name, name === "csrfmiddlewaretoken" && token ? token.value : value);
    }
    return body;
  }

  function answer(hand) {
    // The server's answer page for this hand, opened as a plain form post: the conflict screen
    // (theirs or mine) or the form with what is wrong. Sent again it is still one hand.
    const f = document.createElement("form");
    f.method = "post";
    f.action = page;
    f.hidden = true;
    for (const [name, value] of post(hand.fields)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      f.append(input);
    }
    document.body.append(f);
    f.submit();
  }

  async function flush(mine) {
    if (sending || held) return;
    sending = true;
    let done = 0;
    try {
      for (;;) {
        const [hand] = await queued();
        if (!hand) break;
        state = "sending";
        await show();
        let response;
        const stop = new AbortController();
        const timer = setTimeout(() => stop.abort(), PATIENCE);
        try {
          response = await fetch(page, {
            method: "POST",
            body: post(hand.fields),
            redirect: "manual", // a redirect is the answer "saved": not followed
            credentials: "same-origin",
            signal: stop.signal,
          });
        } catch (error) {
          state = "offline"; // kept: tried again when the connection is back
          break;
        } finally {
          clearTimeout(timer);
        }
        if (response.type === "opaqueredirect" || response.ok) {
          await (await db).delete("hands", hand.seq);
          done += 1;
          continue;
        }
        if (response.status === 409 || response.status === 400) {
          await (await db).delete("hands", hand.seq); // the answer page holds it now
          held = true;
          answer(hand);
          return;
        }
        if (response.status === 403) { // this phone holds no seat now: kept until it does
          state = "seat";
          held = true;
          if (form) location.replace(page); // the page as it is: the seat's code asked
          break;
        }
        if (response.status === 404 || response.status === 410) { // the table is closed
          await (await db).delete("hands", hand.seq);
          location.replace(page);
          return;
        }
        state = "offline"; // the server is not answering well (5xx, 429): kept, tried later
        break;
      }
    } finally {
      sending = false;
      await show();
    }
    if (done && !(await queued()).length) {
      if (mine || !typing) {
        location.replace(page); // the table as it is now, and what was recorded
      } else {
        sent.hidden = false;
        box.hidden = false;
      }
    }
  }

  function numberInput() {
    return form.querySelector("input[name=number]");
  }

  if (form) {
    form.addEventListener("change", () => { typing = true; });
    form.addEventListener("submit", async (event) => {
      const action = form.querySelector("input[name=do]");
      if (!action || action.value !== "hand") return; // only a new hand goes to the outbox
      event.preventDefault();
      const number = numberInput();
      const hands = await queued();
      const typed = parseInt(number.value, 10) || 1;
      // On the server's answer for a refused hand, the form is that hand again: its number
      // stands, and saving it is the choice the later hands waited for.
      const next = held ? typed : nextNumber(hands, typed);
      held = false;
      const fields = Array.from(new FormData(form, event.submitter || undefined))
        .filter(([name]) => name !== "entry_id" && name !== "number")
        .map(([name, value]) => [name, String(value)]);
      fields.push(["number", String(next)], ["entry_id", uuid()]);
      await (await db).add("hands", { page, number: next, fields, at: Date.now() });
      // Ready for the next hand while this one waits: the same form, its number moved on.
      form.reset();
      form.querySelectorAll("input[name=type]").forEach((r) => r.dispatchEvent(new Event("change", { bubbles: false })));
      number.value = String(next + 1);
      typing = false;
      state = "offline";
      await show();
      await flush(true);
    });
  }

  window.addEventListener("online", () => flush(false));
  // Anything but a new hand (undo, a correction, a confirmation) is the server's to do: with
  // no connection it is not sent to a browser's "no internet" page, but said so here.
  document.addEventListener("submit", (event) => {
    if (navigator.onLine || event.target === form) return;
    event.preventDefault();
    box.hidden = false;
    why.textContent = box.dataset.needsConnection;
  }, true);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) flush(false); });
  setInterval(() => flush(false), EVERY);
  show().then(() => flush(false));
})();
