// Live updates of a tournament page: the server says "change" over Server-Sent Events and
// the page reads itself again, replacing its main part (no reload, scroll kept). When the
// stream drops, the page is read every 30 seconds until the stream is back.
(function () {
  "use strict";
  var main = document.getElementById("live");
  var state = document.getElementById("live-state");
  if (!main || !main.dataset.events || !window.fetch) return;
  var REFRESH_MS = 30000;
  var timer = null;
  var reading = false;
  var again = false;
  var source = null;

  function show(lost) {
    if (!state) return;
    state.hidden = false;
    state.textContent = lost ? state.dataset.lost : state.dataset.live;
    state.classList.toggle("lost", lost);
  }

  function refresh() {
    if (reading) { again = true; return; }
    reading = true;
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        // The page is gone (a stream's link revoked, a page turned off): show nothing more.
        if (response.status === 404) {
          main.innerHTML = "";
          if (source) source.close();
          if (timer !== null) { window.clearInterval(timer); timer = null; }
          return null;
        }
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html === null) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (fresh) {
          main.innerHTML = fresh.innerHTML;
          document.dispatchEvent(new CustomEvent("tournament:updated"));
        }
      })
      .catch(function () { /* the next change or the periodic refresh tries again */ })
      .then(function () {
        reading = false;
        if (again) { again = false; refresh(); }
      });
  }

  function fallback(on) {
    if (on && timer === null) timer = window.setInterval(refresh, REFRESH_MS);
    if (!on && timer !== null) { window.clearInterval(timer); timer = null; }
    show(on);
  }

  if (!window.EventSource) { fallback(true); return; }
  var wasLost = false;
  source = new EventSource(main.dataset.events);
  source.addEventListener("ready", function () {
    fallback(false);
    if (wasLost) refresh();
    wasLost = false;
  });
  source.addEventListener("change", refresh);
  source.onerror = function () {
    wasLost = true;
    fallback(true);
  };
})();
