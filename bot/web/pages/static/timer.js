// The live game's speech timer: the page says how many seconds were left when it was drawn
// (data-timer-left); this counts them down each second, and starts again from the fresh
// figure each time the page's live part is read again (live.js's "tournament:updated").
(function () {
  "use strict";
  var started = Date.now();
  var timers = [];

  function scan() {
    started = Date.now();
    timers = Array.prototype.map.call(document.querySelectorAll("[data-timer-left]"), function (el) {
      return { el: el, left: parseInt(el.dataset.timerLeft, 10) || 0 };
    });
  }

  function draw() {
    var spent = Math.floor((Date.now() - started) / 1000);
    timers.forEach(function (timer) {
      var left = Math.max(0, timer.left - spent);
      var text = Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
      if (timer.el.textContent !== text) timer.el.textContent = text;
      timer.el.classList.toggle("over", left === 0);
    });
  }

  scan();
  document.addEventListener("tournament:updated", function () { scan(); draw(); });
  document.addEventListener("game:updated", function () { scan(); draw(); });
  window.setInterval(draw, 250);
})();
