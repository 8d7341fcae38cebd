// The venue screen: type sized to the room, a long list in pages that turn by themselves,
// the body fetched again every `data-interval` seconds and swapped in place. Without this
// file the whole list shows and the page reloads itself (a <noscript> refresh).
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
  function paginate(all, most = Infinity) {
    const pages = [];
    let from = 0;
    while (from < all.length) {
      if (pages.length >= most) return null;
      showOnly(all, from, from + 1);
      let to = from + 1;
      while (to < all.length) {
        reveal(all[to]);
        if (!fits()) { conceal(all[to]); break; }
        to += 1;
      }
      pages.push([from, to]);
      from = to;
    }
    return pages.length ? pages : [[0, 0]];
  }

  // The largest type the width allows (the fewest columns dropped for the smallest type
  // first); then everything at the largest type that holds it on one screen, or — when the
  // smallest cannot — the fewest screenfuls, at the largest type that needs no more of them.
  function fit(all) {
    const low = smallest();
    findClipping();
    setSize(low);
    let level = 0;
    drop(level);
    showOnly(all, 0, all.length);
    while (!fitsAcross() && box.querySelector(`[data-drop="${level + 1}"]`)) drop(++level);
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

  let layout = null;
  function show() {
    const all = items();
    if (!layout) layout = fit(all);
    const pages = layout.length;
    page = page % pages;
    showOnly(all, layout[page][0], layout[page][1]);
    if (label) {
      label.hidden = pages < 2;
      label.textContent = lang === "ja" ? ` · ${page + 1} / ${pages} ページ` : ` · page ${page + 1} of ${pages}`;
    }
  }

  async function refresh() {
    try {
      const response = await fetch(box.dataset.screen, { headers: { "X-Requested-With": "fetch" } });
      if (response.status !== 200) return; // 304: nothing changed
      const html = await response.text();
      const now = /data-phase-now="([^"]*)"/.exec(html);
      // A round seated, play begun, every table done: the header and the clock change too.
      if (now && now[1] !== box.dataset.phase) { window.location.reload(); return; }
      box.innerHTML = html;
      layout = null;
      show();
    } catch (error) {
      // The venue's network blinked: keep what is shown, try again at the next tick.
    }
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
