// The game the page shows while taps wait for the server: the server's view (the same names
// as bot/web/miniapp/views.py gives) redrawn from the page's own replay of the log (rules.js).
// With nothing queued the page shows the server's view as it came.
"use strict";

(function (root) {
  const Rules = root.MafiaRules;

  function fill(text, args) {
    for (const [name, value] of Object.entries(args || {})) text = text.split(`{${name}}`).join(String(value));
    return text;
  }

  function checkResult(game, check) {
    const role = game.roles[check.seat - 1];
    if (!role) return null;
    if (check.by === "don") return role === "sheriff" ? "sheriff" : "not-sheriff";
    return role === "mafia" || role === "don" ? "black" : "red";
  }

  function phaseText(game, texts) {
    const key = game.phase === "speeches" && game.silent ? "phase-silent" : `phase-${game.phase}`;
    const seat = Rules.speaker(game) || (game.leaving.length ? game.leaving[0] : "");
    return fill(texts[key] || key, { day: game.day, night: game.night, seat });
  }

  function seats(server, game) {
    return server.seats.map((seat, index) => Object.assign({}, seat, {
      role: game.roles[index],
      fouls: game.fouls[index],
      technical: game.technical[index],
      out: game.exits[index],
      silenced: game.silenced.includes(index + 1),
      extra: game.extra[index],
    }));
  }

  // The view of `game` (the server's log and the queue replayed), `log` its entries.
  function derive(server, game, log) {
    const texts = server.texts;
    const detected = game.detected;
    return Object.assign({}, server, {
      phase: game.phase,
      phase_text: phaseText(game, texts),
      day: game.day,
      night: game.night,
      speaker: Rules.speaker(game),
      silent: game.silent,
      order: game.order,
      position: game.position,
      nominations: game.nominations,
      candidates: game.candidates,
      leaving: game.leaving,
      no_vote: game.no_vote,
      voters: Rules.inPlay(game).length,
      seats: seats(server, game),
      timer: Rules.timerSeconds(game, server.rules),
      checks: game.checks.map((check) => Object.assign({}, check, { result: checkResult(game, check) })),
      first_killed: game.first_killed,
      best_move: game.best_move,
      detected: detected
        ? { end: detected, winner: Rules.END_WINNER[detected] || null, text: texts[`end-${detected}`] || detected }
        : null,
      winner: game.winner,
      end: game.end,
      // The summary and the confirmation are the server's: they wait for the taps to be saved.
      scores: null,
      missing: [],
      ready: false,
      log,
      refused: null,
      notice: null,
    });
  }

  root.MafiaView = { derive, fill };
})(window);
