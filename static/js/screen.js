// The venue screen: type sized to the room, a long list in pages that turn by themselves,
// the body fetched again every `data-interval` seconds and swapped in place. A field longer
// than the body holds (the server sends at most 100 standings rows, or while a round is
// seated 100 of its tables, an answer) is paged by asking for each page's rows or tables as
// it turns (`?from=&rows=`). Without this file the page shows the rows it holds and its
// refresh moves on to the next ones (a <noscript> refresh).
"use strict";

(function () {
  const box = document.querySelector("[data-screen]");
  if (!box) return;
  const root = document.documentElement;
  const label = document.querySelector("[data-page-of]");
  const lang = root.lang;
  const PAGE_SECONDS = 12;
  // Text never under 32 px at the back of a room; grown until what is shown fills the screen.
  // A phone (someone opened the screen's address) reads 16 px and scrolls instead of paging.
  const NARROW = 800;
  const LARGEST = 96;
  const MOST = 100; // the most rows one answer sends (views/public/screen.py: WINDOW_MOST)
  // What a window holds: the standings' rows, or a seated round's tables.
  const WINDOWED = "#standings-table tbody tr, ol.seating > [data-page-item]";
  let page = 0;

  function smallest() { return window.innerWidth < NARROW ? 16 : 32; }

  // What pages: a standings row, a row of the before-the-last-game table, a table of the
  // seating, a panel of what each player needs. A group (a table with its heading) shows
  // only while one of its items does.
  function items() { return Array.from(box.querySelectorAll("tbody tr, [data-page-item]")); }
  function groupOf(item) { return item.closest("[data-page-group]"); }

  // Boxes that clip what sticks out of them rather than let it show (none, as the screen's
  // sheet stands; a text for screen readers only clips on purpose). Found once per layout.
  let clipping = [];
  function findClipping() {
    clipping = Array.from(document.querySelectorAll("main *")).filter((el) =>
      getComputedStyle(el).overflowX !== "visible" && !el.closest(".visually-hidden"));
  }

  // Nothing past the screen's side: nothing sticks out of the page (whose width leaves out a
  // browser's scroll bar), nothing is cut off inside a box that clips.
  function fitsAcross() {
    return root.scrollWidth <= root.clientWidth
      && clipping.every((el) => el.scrollWidth <= el.clientWidth + 1);
  }

  // …and nothing below its foot (the page's margins too: a page a few pixels too tall gets a
  // scroll bar, which takes its width from the columns).
  function fits() {
    return root.scrollHeight <= root.clientHeight && fitsAcross();
  }

  function showOnly(all, from, to) {
    all.forEach((item, i) => { item.hidden = i < from || i >= to; });
    box.querySelectorAll("[data-page-group]").forEach((group) => {
      group.hidden = !Array.from(group.querySelectorAll("tbody tr, [data-page-item]"))
        .some((item) => !item.hidden);
    });
  }

  function reveal(item) {
    item.hidden = false;
    const group = groupOf(item);
    if (group) group.hidden = false;
  }

  function conceal(item) {
    item.hidden = true;
    const group = groupOf(item);
    if (group && !group.querySelector("tbody tr:not([hidden]), [data-page-item]:not([hidden])")) {
      group.hidden = true;
    }
  }

  // Columns a wide table gives up to keep the type large (data-drop: 1 first).
  function drop(level) {
    box.querySelectorAll("[data-drop]").forEach((cell) => {
      cell.hidden = parseInt(cell.dataset.drop, 10) <= level;
    });
  }

  function setSize(px) { document.body.style.fontSize = `${px}px`; }

  // Screenfuls at the present size: each page as many items, in order, as fit (a panel of
  // conditions is taller than a row: pages are filled by height, not by count). Null once
  // there would be more than `most`. An item taller than the screen has a page to itself.
  function paginate(all, most = Infinity, end = all.length, begin = 0) {
    const pages = [];
    let from = begin;
    while (from < end) {
      if (pages.length >= most) return null;
      showOnly(all, from, from + 1);
      let to = from + 1;
      while (to < end) {
        reveal(all[to]);
        if (!fits()) { conceal(all[to]); break; }
        to += 1;
      }
      pages.push([from, to]);
      from = to;
    }
    return pages.length ? pages : [[0, 0]];
  }

  // Everything shown at the smallest type, columns dropped (the places first) until the
  // width holds them: the type and the drop level every layout starts from.
  function columnsAtSmallest(all) {
    const low = smallest();
    findClipping();
    setSize(low);
    let level = 0;
    drop(level);
    showOnly(all, 0, all.length);
    while (!fitsAcross() && box.querySelector(`[data-drop="${level + 1}"]`)) drop(++level);
    return { low, level };
  }

  // The largest type the width allows (the fewest columns dropped for the smallest type
  // first); then everything at the largest type that holds it on one screen, or — when the
  // smallest cannot — the fewest screenfuls, at the largest type that needs no more of them.
  function fit(all) {
    const { low } = columnsAtSmallest(all);
    if (low < 32) return [[0, all.length]]; // a phone scrolls
    const widest = largest(low, fitsAcross);
    setSize(low);
    if (fits()) {
      setSize(largest(low, fits, widest));
      return [[0, all.length]];
    }
    const fewest = paginate(all).length;
    const size = largest(low, () => paginate(all, fewest) !== null, widest);
    setSize(size);
    return paginate(all);
  }

  // The largest size from `low` up to `high` at which `test` still holds (binary search).
  function largest(low, test, high = LARGEST) {
    let ok = low;
    let bad = high + 1;
    while (bad - ok > 1) {
      const mid = Math.floor((ok + bad) / 2);
      setSize(mid);
      if (test()) ok = mid; else bad = mid;
    }
    return ok;
  }

  // --- a field longer than the body holds -------------------------------------------------

  // The rows (or tables) the body holds: from which, of how many (the server's marker).
  function held() {
    const marker = box.querySelector("[data-rows-total]");
    if (!marker) return null;
    return {
      from: parseInt(marker.dataset.rowsFrom, 10) || 0,
      total: parseInt(marker.dataset.rowsTotal, 10) || 0,
      rows: box.querySelectorAll(WINDOWED).length,
    };
  }

  function windowed() {
    const h = held();
    return h !== null && (h.from > 0 || h.rows < h.total);
  }

  // Where the window's rows begin among the items (the standings come last in the body; a
  // seated round's tables first, the before-the-last-game table after them).
  function firstRow(all) {
    const rows = box.querySelector(WINDOWED);
    const at = rows ? all.indexOf(rows) : -1;
    return at < 0 ? all.length : at;
  }

  // How many of the held rows, from the first, fit on one screen alone at the present size.
  function rowsThatFit(all, start) {
    showOnly(all, 0, 0);
    const end = start + held().rows;
    let n = 0;
    while (start + n < end) {
      reveal(all[start + n]);
      if (!fits()) { conceal(all[start + n]); break; }
      n += 1;
    }
    return Math.max(n, 1);
  }

  // The layout of a windowed field: the columns the width allows at the smallest type; the
  // panels before the window paged as ever; then the window's rows a fixed number a page —
  // the fewest pages the smallest type gives, at the largest type that needs no more; then
  // the panels after it (`after`: counted from the window's end, which moves as it turns).
  function fitWindowed(all) {
    const { low, level } = columnsAtSmallest(all);
    if (low < 32) return { phone: true, level }; // a phone scrolls through the rows it holds
    const total = held().total;
    const start = firstRow(all);
    const widest = largest(low, fitsAcross);
    setSize(low);
    const fewest = Math.ceil(total / rowsThatFit(all, start));
    const size = largest(low, () => Math.ceil(total / rowsThatFit(all, start)) <= fewest, widest);
    setSize(size);
    const perPage = rowsThatFit(all, start);
    const panels = start > 0 ? paginate(all, Infinity, start) : [];
    const end = start + held().rows;
    const after = end < all.length
      ? paginate(all, Infinity, all.length, end).map(([a, b]) => [a - end, b - end]) : [];
    const windows = Math.ceil(total / perPage);
    return { size, level, perPage, panels, windows, after,
      pages: panels.length + windows + after.length };
  }

  // The body's address for `count` rows from row `from`.
  function windowAddress(from, count) {
    const url = new URL(box.dataset.screen, window.location.href);
    url.searchParams.set("from", String(from));
    url.searchParams.set("rows", String(count));
    return url.href;
  }

  // Page `n` of a windowed field: a panel, or its rows (asked for when the body lacks them).
  async function showWindowed(n) {
    const all = items();
    if (n < layout.panels.length || n >= layout.panels.length + layout.windows) {
      setSize(layout.size); // a window's page may have made the type smaller for itself
      drop(layout.level);
    }
    if (n < layout.panels.length) {
      showOnly(all, layout.panels[n][0], layout.panels[n][1]);
      return;
    }
    if (n >= layout.panels.length + layout.windows) {
      const [a, b] = layout.after[n - layout.panels.length - layout.windows];
      const end = firstRow(all) + held().rows;
      showOnly(all, end + a, end + b);
      return;
    }
    const from = (n - layout.panels.length) * layout.perPage;
    let h = held();
    if (from < h.from || from + Math.min(layout.perPage, h.total - from) > h.from + h.rows) {
      if (!(await swap(windowAddress(from, layout.perPage)))) return;
      h = held();
    }
    const rows = items();
    const start = firstRow(rows) + (from - h.from);
    setSize(layout.size);
    drop(layout.level);
    showOnly(rows, start, start + layout.perPage);
    // A window's longer names may wrap: smaller type for this page, never a row cut off.
    let size = layout.size;
    while (!fits() && size > smallest()) setSize(--size);
  }

  // The body at `address` in place of this one; false when nothing came (or the page reloads).
  async function swap(address) {
    try {
      const response = await fetch(address, { headers: { "X-Requested-With": "fetch" } });
      if (response.status !== 200) return false; // 304: nothing changed
      const html = await response.text();
      const now = /data-phase-now="([^"]*)"/.exec(html);
      // A round seated, play begun, every table done: the header and the clock change too.
      if (now && now[1] !== box.dataset.phase) { window.location.reload(); return false; }
      box.innerHTML = html;
      return true;
    } catch (error) {
      return false; // the venue's network blinked: keep what is shown, try again later
    }
  }

  // --- every screen ---------------------------------------------------------------------

  let layout = null;
  let widening = false;
  function show() {
    const h = held();
    if (!layout && !widening && windowed() && h.rows < MOST) {
      // Laid out again (a resize, the fonts arriving) holding one page's rows: first a full
      // window, to measure how many rows fit at each size.
      widening = true;
      swap(windowAddress(h.from, MOST)).finally(() => { show(); widening = false; });
      return;
    }
    const all = items();
    const more = document.querySelector("[data-screen-more]");
    if (!layout) layout = windowed() ? fitWindowed(all) : { whole: fit(all) };
    if (more) more.hidden = !layout.phone && !layout.whole;
    let pages = 1;
    if (layout.whole) {
      pages = layout.whole.length;
      page = page % pages;
      showOnly(all, layout.whole[page][0], layout.whole[page][1]);
    } else if (layout.phone) {
      showOnly(all, 0, all.length);
    } else {
      pages = layout.pages;
      page = page % pages;
      showWindowed(page);
    }
    if (label) {
      label.hidden = pages < 2;
      label.textContent = lang === "ja" ? ` · ${page + 1} / ${pages} ページ` : ` · page ${page + 1} of ${pages}`;
    }
  }

  // The body again: the rows on show (a windowed field's page), or what the page holds.
  async function refresh() {
    let address = box.dataset.screen;
    const h = held();
    const before = firstRow(items());
    if (h && windowed()) address = windowAddress(h.from, Math.max(h.rows, 1));
    if (!(await swap(address))) return;
    // The same layout while the field and the panels before it are as long (the type stays
    // put between pages); laid out again when either changed.
    const now = held();
    if (!layout || layout.whole || layout.phone || !h || !windowed() || now.total !== h.total
        || firstRow(items()) !== before) {
      layout = null;
    }
    show();
  }

  // The type is measured with the page's own fonts (a Japanese font arriving late is wider).
  show();
  if (document.fonts) document.fonts.ready.then(() => { layout = null; show(); });
  setInterval(() => { page += 1; show(); }, PAGE_SECONDS * 1000);
  setInterval(refresh, (parseInt(box.dataset.interval, 10) || 30) * 1000);
  // The check-in code changes every few minutes (the one before still works a while): the
  // page is drawn again when it does, a second late so the server is surely past the change.
  const code = document.querySelector("[data-reload-in]");
  if (code) setTimeout(() => window.location.reload(), (parseInt(code.dataset.reloadIn, 10) + 1) * 1000);
  window.addEventListener("resize", () => { layout = null; show(); });
})();
