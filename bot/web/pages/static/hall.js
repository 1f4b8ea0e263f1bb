// The hall screen scrolls the standings slowly to the bottom, waits, and starts again.
(function () {
  "use strict";
  var SPEED = 40; // pixels per second
  var PAUSE_MS = 5000;
  var waitUntil = Date.now() + PAUSE_MS;
  var atBottom = false;
  var position = 0;
  var last = null;

  function step(now) {
    var elapsed = last === null ? 0 : (now - last) / 1000;
    last = now;
    var bottom = document.documentElement.scrollHeight - window.innerHeight;
    if (Date.now() >= waitUntil && bottom > 0) {
      if (atBottom) {
        atBottom = false;
        position = 0;
        waitUntil = Date.now() + PAUSE_MS;
      } else {
        position = Math.min(bottom, position + SPEED * elapsed);
        if (position >= bottom) {
          atBottom = true;
          waitUntil = Date.now() + PAUSE_MS;
        }
      }
      window.scrollTo(0, position);
    }
    window.requestAnimationFrame(step);
  }
  // The hall's clock: the time of day, in the page's language, each second.
  var clock = document.getElementById("clock");
  function tick() {
    if (clock) {
      clock.textContent = new Date().toLocaleTimeString(clock.lang || undefined, {
        hour: "2-digit", minute: "2-digit"
      });
    }
  }
  tick();
  window.setInterval(tick, 1000);
  document.documentElement.dataset.autoscroll = "on";
  window.requestAnimationFrame(step);
})();
