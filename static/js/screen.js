// The venue screen: type sized to the room, a long list in pages that turn by themselves,
// the body fetched again every `data-interval` seconds and swapped in place. Without this
// file the whole list shows and the page reloads itself (a <noscript> refresh).
"use strict";

(function () {
  const box = document.querySelector("[data-screen]");
  if (!box) return;
  const label = document.querySelector("[data-page-of]");
  const lang = document.documentElement.lang;
  const PAGE_SECONDS = 12;
  // Text never under 32 px at the back of a room; grown until the rows fill the screen.
  const SMALLEST = 32;
  const LARGEST = 96;
  let page = 0;

  // A standings row, or a table of the seating.
  function items() { return Array.from(box.querySelectorAll("tbody tr, [data-page-item]")); }

  // Whether what is shown fits the screen: nothing below its foot, nothing past its side.
  function fits() {
    const table = box.querySelector("table");
    const wide = table ? table.getBoundingClientRect().width : box.scrollWidth;
    return box.getBoundingClientRect().bottom <= window.innerHeight - 8
      && wide <= document.documentElement.clientWidth;
  }

  function showOnly(all, from, size) {
    all.forEach((item, i) => { item.hidden = i < from || i >= from + size; });
  }

  // Columns a wide table gives up to keep 32 px text (data-drop: 1 first).
  function drop(level) {
    box.querySelectorAll("[data-drop]").forEach((cell) => {
      cell.hidden = parseInt(cell.dataset.drop, 10) <= level;
    });
  }

  function setSize(px) { document.body.style.fontSize = `${px}px`; }

  // The largest type the width allows (the fewest columns dropped for 32 px first); then all
  // the items at the largest type that holds them on one screen, or — when 32 px cannot —
  // screenfuls of as many items as fit, each filling the screen.
  function fit(all) {
    setSize(SMALLEST);
    let level = 0;
    drop(level);
    showOnly(all, 0, all.length);
    while (!fitsAcross() && box.querySelector(`[data-drop="${level + 1}"]`)) drop(++level);
    const widest = largest(SMALLEST, fitsAcross);
    setSize(SMALLEST);
    if (fits()) {
      setSize(largest(SMALLEST, fits, widest));
      return { size: all.length, pages: 1 };
    }
    setSize(widest);
    let size = all.length;
    while (size > 1) {
      showOnly(all, 0, size);
      if (fits()) break;
      size -= 1;
    }
    return { size, pages: Math.ceil(all.length / size) };
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

  function fitsAcross() {
    const table = box.querySelector("table");
    return !table || table.getBoundingClientRect().width <= document.documentElement.clientWidth;
  }

  let layout = null;
  function show() {
    const all = items();
    if (!layout) layout = fit(all);
    const { size, pages } = layout;
    page = page % pages;
    showOnly(all, page * size, size);
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

  show();
  setInterval(() => { page += 1; show(); }, PAGE_SECONDS * 1000);
  setInterval(refresh, (parseInt(box.dataset.interval, 10) || 30) * 1000);
  window.addEventListener("resize", () => { layout = null; show(); });
})();
