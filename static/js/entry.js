// Organizer entry screens. Everything works without this file; it only helps while typing:
// the running sum of a final-scores form, the fields of the chosen hand result, printing.
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
    function update() {
      const chosen = radios.find((r) => r.checked);
      for (const part of parts) {
        part.hidden = !chosen || !part.dataset.for.split(" ").includes(chosen.value);
      }
    }
    radios.forEach((r) => r.addEventListener("change", update));
    update();
  }

  document.querySelectorAll("form[data-scores]").forEach(scores);
  document.querySelectorAll("form[data-hand]").forEach(hand);
  document.querySelectorAll("[data-print]").forEach((b) => b.addEventListener("click", () => window.print()));
})();
