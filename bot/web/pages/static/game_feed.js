// The hall screen's live game (a final's one table): its part of the game's live page is
// read into the hall's #hall-game, again each time the game's events say "change". The hall's
// own refresh (live.js) draws #hall-game anew: the feed binds to the new one.
(function () {
  "use strict";
  if (!window.fetch || !window.EventSource) return;
  var source = null;
  var address = null;

  function load() {
    var box = document.getElementById("hall-game");
    if (!box) return;
    fetch(box.dataset.source, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var current = document.getElementById("hall-game");
        if (html === null || !current) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector(".live-game");
        var feed = current.querySelector(".feed");
        if (!fresh || !feed) return;
        feed.replaceChildren(document.importNode(fresh, true));
        document.dispatchEvent(new CustomEvent("game:updated"));
      })
      .catch(function () { /* the next change tries again */ });
  }

  function bind() {
    var box = document.getElementById("hall-game");
    var events = box ? box.dataset.events : null;
    if (events !== address) {
      if (source) source.close();
      source = events ? new EventSource(events) : null;
      address = events;
      if (source) source.addEventListener("change", load);
    }
    load();
  }

  bind();
  document.addEventListener("tournament:updated", bind);
})();
