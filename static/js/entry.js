// Organizer entry screens. Everything works without this file; it only helps while typing:
// the running sum of a final-scores form, the fields of the chosen hand result
// (and of a win: fu only under mangan), printing.
"use strict";

(function () {
  function scores(form) {
    const expected = parseInt(form.dataset.expected, 10);
    const line = form.querySelector("[data-sum]");
    const inputs = Array.from(form.querySelectorAll("input[name^='score_'], input[name='deposits']"));
    const lang = document.documentElement.lang;
    function update() {
      let total = 0;
      let empty = false;
      for (const input of inputs) {
        if (input.value === "") { empty = input.name !== "deposits" || empty; continue; }
        total += parseInt(input.value, 10) || 0;
      }
      const off = total - expected;
      line.classList.toggle("bad", !empty && off !== 0);
      line.classList.toggle("good", !empty && off === 0);
      if (lang === "ja") {
        line.textContent = `合計 ${total} / ${expected}` + (off ? `（${off > 0 ? "+" : ""}${off}）` : " ✓");
      } else {
        line.textContent = `Sum ${total} of ${expected}` + (off ? ` (${off > 0 ? "+" : ""}${off})` : " ✓");
      }
    }
    inputs.forEach((input) => input.addEventListener("input", update));
    update();
  }

  function hand(form) {
    const radios = Array.from(form.querySelectorAll("input[name='type']"));
    const parts = Array.from(form.querySelectorAll("[data-for]"));
    const fuBelow = parseInt(form.dataset.fuBelow, 10);
    function update() {
      const chosen = radios.find((r) => r.checked);
      for (const part of parts) {
        part.hidden = !chosen || !part.dataset.for.split(" ").includes(chosen.value);
      }
    }
    radios.forEach((r) => r.addEventListener("change", update));
    update();

    // A win: han or yakuman, never both; fu only while it changes the value (under mangan).
    const fits = [];
    for (const win of form.querySelectorAll("[data-win]")) {
      const han = Array.from(win.querySelectorAll(":scope > .pick input[name$='han']"));
      const rare = win.querySelector(":scope > details.rare");
      const yakuman = rare ? Array.from(rare.querySelectorAll("input[name$='yakuman']")) : [];
      const fu = win.querySelector(":scope > [data-fu]");
      function fit(event) {
        const picked = event && event.target;
        if (picked && picked.checked && han.includes(picked)) yakuman.forEach((y) => { y.checked = false; });
        if (picked && picked.checked && yakuman.includes(picked)) han.forEach((h) => { h.checked = false; });
        if (!fu) return;
        const value = han.find((h) => h.checked);
        const limit = (value && parseInt(value.value, 10) >= fuBelow) || yakuman.some((y) => y.checked);
        fu.hidden = limit;
        if (limit) fu.querySelectorAll("input").forEach((f) => { f.checked = false; });
      }
      han.concat(yakuman).forEach((input) => input.addEventListener("change", fit));
      fit();
      fits.push(fit);
    }

    // Winner and dealt-in cannot be the same seat: the dealt-in button of the winner is off.
    const discarder = Array.from(form.querySelectorAll("input[name='discarder']"));
    const winners = Array.from(form.querySelectorAll("input[name^='wins_'][name$='_seat']"));
    function apart() {
      const taken = new Set(winners.filter((w) => w.checked).map((w) => w.value));
      discarder.forEach((d) => { d.disabled = taken.has(d.value); if (d.disabled) d.checked = false; });
    }
    winners.forEach((w) => w.addEventListener("change", apart));
    apart();

    // Emptied for the next hand while the last one waits in the outbox (outbox.js resets the
    // form): fitted again once the reset has cleared the buttons — the last winner's "Dealt
    // in" on again, the fu a mangan hid shown. The form outlives live.js's swaps, which fit
    // it again: one listener, calling the newest fitting.
    form.refit = () => { update(); fits.forEach((fit) => fit()); apart(); };
    if (!("refits" in form.dataset)) {
      form.dataset.refits = "";
      form.addEventListener("reset", () => setTimeout(() => form.refit(), 0));
    }
  }

  document.querySelectorAll("form[data-scores]").forEach(scores);
  document.querySelectorAll("form[data-hand]").forEach(hand);
  // A part of the page live.js brought up to date: its forms' fields are new, fitted again.
  document.addEventListener("live:swapped", (event) => {
    event.target.querySelectorAll("form[data-scores]").forEach(scores);
    event.target.querySelectorAll("form[data-hand]").forEach(hand);
  });
  // Undo beside "東2局 を記録しました": opens the log's undo (which asks first) and shows it.
  // Without this file the link still leads to it; with no undo on the page, it goes.
  const undo = document.getElementById("undo");
  document.querySelectorAll("[data-undo-link]").forEach((link) => {
    if (!undo) { link.remove(); return; }
    link.addEventListener("click", (event) => {
      event.preventDefault();
      undo.open = true;
      undo.scrollIntoView({ block: "center" });
      undo.querySelector("button")?.focus({ preventScroll: true });
    });
  });
  // Print: the page as it is, or (data-print="slips") the round sheet's seat slips alone.
  document.querySelectorAll("[data-print]").forEach((b) => b.addEventListener("click", () => {
    if (b.dataset.print) document.body.dataset.printing = b.dataset.print;
    window.print();
  }));
  window.addEventListener("afterprint", () => { delete document.body.dataset.printing; });
})();
