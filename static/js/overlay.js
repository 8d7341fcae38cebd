// The overlay (CONTRACT §9; tournament/views/public/overlay.py): draws a streamed table from its
// feed, asked every second with the ETag it was last answered (304 while the table has not
// moved). A look that fails (a dropped connection, a restart) leaves the bar as it is and the
// next second asks again. A new hand shows what it was in words for BANNER_MS.
(function () {
  "use strict";
  var body = document.body;
  var feed = body.dataset.feed;
  var words = JSON.parse(document.getElementById("overlay-words").textContent);
  var LOOK_MS = 1000;
  var BANNER_MS = 8000;
  var etag = null;
  var shownHand = null; // the last hand the bar has drawn, as its feed said it (JSON)
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

  function draw(live) {
    current = live;
    document.querySelector("[data-hand]").textContent = handLabel(live);
    var sticks = document.querySelector("[data-sticks]");
    sticks.hidden = !live.riichi_sticks;
    sticks.textContent = words.sticks + " ×" + live.riichi_sticks;

    var scores = live.seats.map(function (seat) { return seat.score; });
    var top = Math.max.apply(null, scores);
    var second = scores.slice().sort(function (a, b) { return b - a; })[1];
    // A new hand, or the last one corrected or taken back: said again.
    var lastHand = JSON.stringify(live.last);
    var fresh = live.last && lastHand !== shownHand && shownHand !== null;
    var list = document.querySelector("[data-seats]");
    list.style.setProperty("--seats", live.seats.length);
    list.replaceChildren.apply(list, live.seats.map(function (seat) {
      var item = element("li", "seat" + (seat.seat === live.dealer ? " dealer" : ""));
      if (seat.wind) item.appendChild(element("span", "wind", words.seat_winds[seat.wind]));
      var who = element("span", "who");
      who.appendChild(element("span", "name", seat.player));
      if (seat.seat === live.dealer) who.appendChild(element("span", "badge", words.dealer));
      if (fresh && seat.riichi) who.appendChild(element("span", "badge riichi", words.riichi));
      item.appendChild(who);
      var line = element("span", "line");
      line.appendChild(element("span", "score", score(seat.score)));
      if (fresh) {
        // While the hand is said: what it changed, for every seat (±0 too).
        var delta = live.last.deltas[seat.seat] || 0;
        var kind = delta > 0 ? " plus" : delta < 0 ? " minus" : "";
        line.appendChild(element("span", "delta" + kind, signed(delta)));
      } else {
        // The leader's lead over the second, and everyone else's way to the top — in words,
        // so that it is never read as what a hand paid.
        var gap = seat.score === top ? top - second : top - seat.score;
        var said = seat.score === top ? words.lead : words.to_top;
        line.appendChild(element("span", "diff", fill(said, { points: numbers.format(gap) })));
      }
      item.appendChild(line);
      return item;
    }));

    var banner = document.querySelector("[data-banner]");
    if (fresh) {
      banner.textContent = said(live);
      banner.hidden = !banner.textContent;
      clearTimeout(bannerTimer);
      bannerTimer = setTimeout(function () { banner.hidden = true; draw(current); }, BANNER_MS);
    }
    shownHand = lastHand;

    var state = document.querySelector("[data-state]");
    var text = live.confirmation === "waiting" ? words.waiting
      : live.confirmation === "disputed" ? words.disputed : "";
    state.textContent = text;
    state.hidden = !text;
  }

  // The table drawn is no more the feed's (the featured feed: another table featured, or none):
  // nothing of it is said again, as on a first look.
  function forget() {
    shownHand = null;
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
          document.querySelector("[data-seats]").replaceChildren();
        }
      })
      .catch(function () { /* asked again at the next look */ })
      .then(function () { setTimeout(look, LOOK_MS); });
  }

  if (feed) look();
})();
