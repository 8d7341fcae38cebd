// The venue screen: a long table shows one screenful at a time and turns the page by itself;
// the table is fetched again every `data-interval` seconds and swapped in place. Without this
// file the whole table shows and the page reloads itself (a <noscript> refresh).
"use strict";

(function () {
  const box = document.querySelector("[data-screen]");
  if (!box) return;
  const label = document.querySelector("[data-page-of]");
  const lang = document.documentElement.lang;
  const PAGE_SECONDS = 12;
  let page = 0;

  function rows() { return Array.from(box.querySelectorAll("tbody tr")); }

  // How many rows fit below the table's top without scrolling.
  function perPage(all) {
    if (!all.length) return 1;
    const top = box.querySelector("table").getBoundingClientRect().top;
    const head = box.querySelector("thead").getBoundingClientRect().height;
    const note = Array.from(box.querySelectorAll(".cut-note, .updated"))
      .reduce((sum, el) => sum + el.getBoundingClientRect().height, 0);
    const room = window.innerHeight - top - head - note - 16;
    const height = all[0].getBoundingClientRect().height || 40;
    return Math.max(1, Math.floor(room / height));
  }

  function show() {
    const all = rows();
    all.forEach((tr) => { tr.hidden = false; });
    const size = perPage(all);
    const pages = Math.max(1, Math.ceil(all.length / size));
    page = page % pages;
    all.forEach((tr, i) => { tr.hidden = Math.floor(i / size) !== page; });
    if (label) {
      label.hidden = pages < 2;
      label.textContent = lang === "ja" ? ` · ${page + 1} / ${pages} ページ` : ` · page ${page + 1} of ${pages}`;
    }
    return pages;
  }

  async function refresh() {
    try {
      const response = await fetch(box.dataset.screen, { headers: { "X-Requested-With": "fetch" } });
      if (response.ok) { box.innerHTML = await response.text(); show(); }
    } catch (error) {
      // The venue's network blinked: keep what is shown, try again at the next tick.
    }
  }

  show();
  setInterval(() => { page += 1; show(); }, PAGE_SECONDS * 1000);
  setInterval(refresh, (parseInt(box.dataset.interval, 10) || 30) * 1000);
  window.addEventListener("resize", show);
})();
