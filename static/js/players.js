// A player typed in an organizer's form (a seat, a penalty): the page's <datalist> offers the
// table's players; as a name is typed, the event's search fills it with the players whose
// name holds what was typed (at most 20). Everything works without this file: the full name
// typed is checked by the server.
"use strict";

(function () {
  const list = document.querySelector("datalist[data-search]");
  if (!list || !window.fetch) return;
  const inputs = Array.from(document.querySelectorAll(`input[list="${list.id}"]`));
  const offered = Array.from(list.options, (option) => option.value);
  let timer = null;
  let asked = 0; // the latest question: an older answer arriving late is dropped

  function show(names) {
    const seen = new Set();
    const options = [];
    for (const name of names.concat(offered)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const option = document.createElement("option");
      option.value = name;
      options.push(option);
    }
    list.replaceChildren(...options);
  }

  async function search(typed) {
    const mine = ++asked;
    try {
      const url = `${list.dataset.search}?q=${encodeURIComponent(typed)}`;
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (!response.ok || mine !== asked) return;
      const answer = await response.json();
      if (mine === asked) show(answer.names || []);
    } catch (error) {
      // Offline for a moment: the names offered stay; the typed name is checked on saving.
    }
  }

  function stop() {
    clearTimeout(timer);
    asked++;
  }

  for (const input of inputs) {
    input.addEventListener("input", () => {
      stop();
      const typed = input.value.trim();
      if (!typed) {
        show([]);
        return;
      }
      // A name picked from the list (or typed whole as listed) needs no search.
      if (Array.from(list.options).some((option) => option.value === typed)) return;
      timer = setTimeout(() => search(typed), 150);
    });
    if (input.form) input.form.addEventListener("submit", stop);
  }
})();
