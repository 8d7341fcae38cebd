// The overlay (CONTRACT §9; tournament/views/public/overlay.py): draws a streamed table from its
// feed, asked every second with the ETag it was last answered (304 while the table has not
// moved). A look that fails (a dropped connection, a restart) leaves the bar as it is and the
// next second asks again. A new hand shows what it was in words for BANNER_MS. In a stage's
// deciding game it shows what each seat needs (the last hand) or each place would need (before
// the game begins); `?layout=full` adds the event's standings, asked every STANDINGS_MS.
(function () {
  "use strict";
  var body = document.body;
  var feed = body.dataset.feed;
  var words = JSON.parse(document.getElementById("overlay-words").textContent);
  var LOOK_MS = 1000;
  var BANNER_MS = 8000;
  var STANDINGS_MS = 5000;
  var STANDINGS_ROWS = 10; // rows at most: the top, then the table's players further down
  var gapToAbove = body.dataset.gap === "above"; // ?gap=above: to the seat above, not the top
  var etag = null;
  var shownHand = null; // the last hand the bar has drawn, as its feed said it (JSON)
  var shownNumber = 0; // and its number (0: none)
  var bannerTimer = null;
  var current = null; // the table as last answered
  var numbers = new Intl.NumberFormat(body.dataset.language === "ja" ? "ja-JP" : "en-GB");

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) {
      return values[key] === undefined ? "" : values[key];
    });
  }

  function handLabel(live) {
    var found = /^([ESWN])(\d+)-(\d+)$/.exec(live.label || "");
    if (!found) return live.label || (live.confirmed ? words.final : words.over);
    return fill(words.hand, { wind: words.winds[found[1]], hand: found[2], honba: found[3] });
  }

  function score(points) {
    return (points < 0 ? "−" : "") + numbers.format(Math.abs(points));
  }

  // A stage total (one decimal), its sign always said: +12.3, −4.0.
  var totals = new Intl.NumberFormat(body.dataset.language === "ja" ? "ja-JP" : "en-GB",
    { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  function total(value, withSign) {
    var sign = value < 0 ? "−" : withSign && value > 0 ? "+" : "";
    return sign + totals.format(Math.abs(value));
  }

  function signed(points) {
    return (points > 0 ? "+" : points < 0 ? "−" : "±") + numbers.format(Math.abs(points));
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // What the last hand was, in words: 「中村 ロン 8,000 ← 高橋」 / "Nakamura ron 8,000 from Takahashi".
  function said(live) {
    var last = live.last;
    var result = (last && last.hand && last.hand.result) || {};
    var name = function (seat) { return live.seats[seat] ? live.seats[seat].player : "?"; };
    var names = function (seats) { return (seats || []).map(name).join(words.list); };
    // The hand's value as the engine priced it (`last.wins`), not the winner's net change
    // (which holds the honba, the sticks taken and their own stick back).
    var value = function (seat) {
      var win = (last.wins || []).filter(function (w) { return w.seat === seat; })[0];
      return win ? numbers.format(win.value) : "";
    };
    if (result.type === "ron") {
      return (result.wins || []).map(function (win) {
        return fill(words.ron, { winner: name(win.seat), points: value(win.seat), from: name(result.discarder) });
      }).join(" / ");
    }
    if (result.type === "tsumo") {
      return fill(words.tsumo, { winner: name(result.winner), points: value(result.winner) });
    }
    if (result.type === "draw") {
      var tenpai = result.tenpai || [];
      return words.draw + " · " + (tenpai.length ? fill(words.tenpai, { seats: names(tenpai) }) : words.noten);
    }
    if (result.type === "nagashi") return fill(words.nagashi, { seats: names(result.winners) });
    if (result.type === "chombo") return fill(words.chombo, { seat: name(result.offender) });
    if (result.type === "abort") return words.abort;
    return "";
  }

  // A name too long for its place is set smaller, down to FIT_LEAST of its size, before it is
  // cut with an ellipsis: "Maximilian Oberhuber-Schmidt" whole rather than "Maximilian Oberh…".
  var FIT_LEAST = 0.7;
  function fit(node) {
    node.style.fontSize = "";
    var size = parseFloat(getComputedStyle(node).fontSize);
    var least = size * FIT_LEAST;
    while (node.scrollWidth > node.clientWidth && size > least) {
      size = Math.max(least, size - 1);
      node.style.fontSize = size + "px";
    }
  }

  function fitNames() {
    document.querySelectorAll(".seat .name, .needs th, .needs td.need, .standings td.who").forEach(fit);
  }

  function gapWords(mine, scores, top, second) {
    if (mine === top && top === second) return ""; // level at the top (the game's start)
    if (mine === top) return fill(words.lead, { points: numbers.format(top - second) });
    if (!gapToAbove) return fill(words.to_top, { points: numbers.format(top - mine) });
    var above = scores.filter(function (s) { return s > mine; });
    var next = Math.min.apply(null, above); // the nearest score above this one
    return fill(words.to_above, { points: numbers.format(next - mine), place: words.places[above.length] });
  }

  // A condition in words, as the table's sheet says it (tournament/i18n.py `win_text`, whose
  // words these are): 満貫, 3翻40符, 役満 — or any win, cannot, plays on.
  function winText(need) {
    if (typeof need === "string") return words.need_words[need] || need;
    if (need.limit && words.limits[need.limit]) return words.limits[need.limit];
    if (need.yakuman === 2) return words.double_yakuman;
    if (need.yakuman) return need.yakuman === 1 ? words.yakuman : fill(words.yakuman_n, { n: need.yakuman });
    if (need.yaku !== undefined) return fill(words.yaku, { n: need.yaku || 0 });
    return need.fu ? fill(words.han_fu, { han: need.han, fu: need.fu }) : fill(words.han, { han: need.han });
  }

  function needCell(need) {
    var cell = element("td", "need need-" + (typeof need === "string" ? need : "win"), winText(need));
    if (typeof need !== "string" && need.points) cell.appendChild(element("small", "", numbers.format(need.points)));
    return cell;
  }

  function row(cells, className) {
    var tr = element("tr", className);
    cells.forEach(function (cell) { tr.appendChild(cell); });
    return tr;
  }

  // CONTRACT §6 at the table's last hand: each seat's rank now, then the cheapest tsumo and ron
  // from each other seat that bring them to the target.
  function drawConditions(panel, live) {
    var answer = live.conditions;
    var names = live.seats.map(function (seat) { return seat.player; });
    panel.appendChild(element("h2", "", answer.target === 1 && answer.last_stage
      ? words.needs_win : fill(words.needs_top, { k: answer.target })));
    panel.appendChild(element("p", "note", words.needs_note));
    var table = element("table");
    var head = [element("th", "", ""), element("th", "", ""), element("th", "", words.tsumo_way)];
    names.forEach(function (name) { head.push(element("th", "", fill(words.ron_from, { seat: name }))); });
    table.appendChild(row(head));
    answer.seats.forEach(function (seat) {
      var cells = [element("th", "who", names[seat.seat]), element("td", "now", fill(words.now, { n: seat.now })), needCell(seat.tsumo)];
      names.forEach(function (_, other) {
        cells.push(other === seat.seat ? element("td", "self", "—") : needCell(seat.ron[String(other)]));
      });
      table.appendChild(row(cells, seat.seat === live.dealer ? "dealer" : ""));
    });
    panel.appendChild(table);
  }

  // CONTRACT §6 before the deciding game: each player's total and gaps, and for each place
  // at the table the lowest final score that still brings them to the target.
  function drawBefore(panel, live) {
    var before = live.before;
    panel.appendChild(element("h2", "", words.before));
    panel.appendChild(element("p", "note", (before.last_stage ? words.before_win
      : fill(words.before_cut, { k: before.target })) + " " + words.before_note));
    var table = element("table");
    var head = [element("th", "", ""), element("th", "", ""), element("th", "", words.total), element("th", "", words.to_lead)];
    if (!before.last_stage) head.push(element("th", "", words.to_cut));
    before.places.forEach(function (place) { head.push(element("th", "", words.places[place])); });
    table.appendChild(row(head));
    before.rows.forEach(function (player) {
      var cells = [element("th", "who", player.player), element("td", "now", fill(words.now, { n: player.now })),
        element("td", "total", total(player.total, true)), element("td", "", total(player.to_lead, true))];
      if (!before.last_stage) cells.push(element("td", "", player.to_cut === null ? "" : total(player.to_cut, true)));
      player.places.forEach(function (need) {
        var text = need === "any" ? words.place_any : need === "none" ? words.place_none
          : fill(words.place_score, { score: numbers.format(need) });
        cells.push(element("td", "need need-" + (typeof need === "string" ? need : "score"), text));
      });
      table.appendChild(row(cells));
    });
    panel.appendChild(table);
  }

  function drawNeeds(live) {
    var panel = document.querySelector("[data-needs]");
    panel.replaceChildren();
    if (live.conditions) drawConditions(panel, live);
    else if (live.before) drawBefore(panel, live);
    panel.hidden = !panel.firstChild;
  }

  function draw(live) {
    current = live;
    document.querySelector("[data-hand]").textContent = handLabel(live);
    var sticks = document.querySelector("[data-sticks]");
    sticks.hidden = !live.riichi_sticks;
    sticks.textContent = words.sticks + " ×" + live.riichi_sticks;

    var scores = live.seats.map(function (seat) { return seat.score; });
    var top = Math.max.apply(null, scores);
    var second = scores.slice().sort(function (a, b) { return b - a; })[1];
    // A new hand is said; the last one corrected is said again as corrected; a hand taken back
    // is not said (what is left was said when it was played), and stops being said.
    var lastHand = JSON.stringify(live.last);
    var number = live.last ? live.last.number : 0;
    var changed = shownHand !== null && lastHand !== shownHand;
    var fresh = changed && number > 0 && number >= shownNumber;
    var corrected = fresh && number === shownNumber;
    var list = document.querySelector("[data-seats]");
    list.style.setProperty("--seats", live.seats.length);
    list.replaceChildren.apply(list, live.seats.map(function (seat) {
      var item = element("li", "seat" + (seat.seat === live.dealer ? " dealer" : ""));
      if (seat.wind) item.appendChild(element("span", "wind", words.seat_winds[seat.wind]));
      var who = element("span", "who");
      who.appendChild(element("span", "name", seat.player));
      if (seat.seat === live.dealer) who.appendChild(element("span", "badge", words.dealer));
      item.appendChild(who);
      var line = element("span", "line");
      line.appendChild(element("span", "score", score(seat.score)));
      if (fresh) {
        // While the hand is said: what it changed, for every seat (±0 too).
        var delta = live.last.deltas[seat.seat] || 0;
        var kind = delta > 0 ? " plus" : delta < 0 ? " minus" : "";
        line.appendChild(element("span", "delta" + kind, signed(delta)));
        // Beside the change, not the name: a stick put in the hand just said, which a badge by
        // the name would read as riichi in the hand now (beside the new dealer's badge).
        if (seat.riichi) line.appendChild(element("span", "badge riichi", words.riichi));
      } else {
        // The leader's lead over the second, and everyone else's way to the top (or, with
        // ?gap=above, to the seat above) — in words, so that it is never read as what a hand
        // paid.
        line.appendChild(element("span", "diff", gapWords(seat.score, scores, top, second)));
      }
      item.appendChild(line);
      return item;
    }));

    var banner = document.querySelector("[data-banner]");
    if (fresh) {
      var saying = said(live);
      banner.textContent = saying && corrected ? words.corrected + " " + saying : saying;
      banner.hidden = !banner.textContent;
      clearTimeout(bannerTimer);
      bannerTimer = setTimeout(function () { banner.hidden = true; draw(current); }, BANNER_MS);
    } else if (changed) {
      clearTimeout(bannerTimer);
      banner.hidden = true;
    }
    shownHand = lastHand;
    shownNumber = number;

    var state = document.querySelector("[data-state]");
    var text = live.confirmation === "waiting" ? words.waiting
      : live.confirmation === "disputed" ? words.disputed : "";
    state.textContent = text;
    state.hidden = !text;
    drawNeeds(live);
    if (standings) drawStandings();
    fitNames();
  }

  // ?layout=full: the event's standings (its API's document, asked with its ETag), the top
  // STANDINGS_ROWS and the table's players wherever they are, marked.
  var standingsFeed = body.dataset.standings;
  var standings = null;
  var standingsTag = null;

  function drawStandings() {
    var playing = {};
    (current ? current.seats : []).forEach(function (seat) { playing[seat.player] = true; });
    var rows = standings.standings;
    // The table's players below the top rows take the places of the last ones, so the panel
    // keeps its height (and clears the bar's panels at 720 lines).
    var below = rows.filter(function (r, i) { return i >= STANDINGS_ROWS && playing[r.player]; });
    var top = STANDINGS_ROWS - below.length;
    var shown = rows.filter(function (r, i) { return i < top || playing[r.player]; });
    var list = document.querySelector("[data-standings-panel] tbody");
    var cells = [];
    shown.forEach(function (r, i) {
      if (i > 0 && rows.indexOf(r) !== rows.indexOf(shown[i - 1]) + 1) {
        cells.push(row([element("td", "gap", "⋯"), element("td"), element("td")], "skip"));
      }
      cells.push(row([element("td", "rank", String(r.rank)), element("td", "who", r.player),
        element("td", "total", total(r.total, true))], playing[r.player] ? "playing" : ""));
    });
    list.replaceChildren.apply(list, cells);
    document.querySelector("[data-standings-panel]").hidden = !rows.length;
    document.querySelectorAll(".standings td.who").forEach(fit);
  }

  function lookStandings() {
    var headers = { Accept: "application/json" };
    if (standingsTag) headers["If-None-Match"] = standingsTag;
    fetch(standingsFeed, { headers: headers, cache: "no-store", credentials: "omit" })
      .then(function (answer) {
        if (answer.status !== 200) return;
        standingsTag = answer.headers.get("ETag");
        return answer.json().then(function (doc) { standings = doc; drawStandings(); });
      })
      .catch(function () { /* asked again at the next look */ })
      .then(function () { setTimeout(lookStandings, STANDINGS_MS); });
  }

  // The table drawn is no more the feed's (the featured feed: another table featured, or none):
  // nothing of it is said again, as on a first look.
  function forget() {
    shownHand = null;
    shownNumber = 0;
    current = null;
    clearTimeout(bannerTimer);
    document.querySelector("[data-banner]").hidden = true;
  }

  function look() {
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(feed, { headers: headers, cache: "no-store", credentials: "omit" })
      .then(function (answer) {
        if (answer.status === 200) {
          etag = answer.headers.get("ETag");
          return answer.json().then(function (live) {
            if (current && (current.round !== live.round || current.table !== live.table)) forget();
            draw(live);
          });
        }
        if (answer.status === 404) {
          // No such table, or none featured: said, the bar emptied, and asked again.
          etag = null;
          forget();
          document.querySelector("[data-hand]").textContent = words.missing;
          document.querySelector("[data-sticks]").hidden = true;
          document.querySelector("[data-state]").hidden = true;
          document.querySelector("[data-needs]").hidden = true;
          document.querySelector("[data-seats]").replaceChildren();
        }
      })
      .catch(function () { /* asked again at the next look */ })
      .then(function () { setTimeout(look, LOOK_MS); });
  }

  look();
  if (standingsFeed) lookStandings();
})();
