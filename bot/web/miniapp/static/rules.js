// The game's rules on the phone: a port of the live game's state machine (domain/game_log:
// play.py, day.py, night.py, end.py and the timer of state.py), so that every tap is applied at
// once, without the server. The server replays the same log with the Python rules and stays
// the validator: it also checks what the protocol's rules engine checks (the best move, extra
// points, the end's reason), which this port leaves to it. tests/unit/test_miniapp_rules_js.py
// replays the same logs here (in node) and in Python and compares the games they make.
"use strict";

(function (root) {
  const SEATS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const ROLE_COUNTS = { civilian: 6, sheriff: 1, mafia: 2, don: 1 };
  const SIDE = { civilian: "red", sheriff: "red", mafia: "black", don: "black" };
  const END_WINNER = { black_out: "red", parity: "black", missed_nights: "red", four_players_three_nights: "red" };
  const DAY_PHASES = ["speeches", "voting", "split_speeches", "revote", "all_or_nobody"];

  class Refused extends Error {
    constructor(code, args) { super(code); this.code = code; this.args = args || {}; }
  }

  function fresh() {
    return {
      roles: Array(10).fill(null), fouls: Array(10).fill(0), exits: Array(10).fill(null),
      technical: Array(10).fill(0),
      phase: "introduction", day: 0, night: 0, first_speaker: 0, order: [], position: 0,
      silent: false, silenced: [], nominations: [], no_vote: false, candidates: [], leaving: [],
      shot: null, misses_in_row: 0, four_players_quiet_nights: 0, first_killed: null,
      first_killed_night: null, best_move: null, checks: [], votes: [], detected: null,
      winner: null, end: null, end_comment: "", extra: Array(10).fill("0"),
    };
  }

  const put = (game, changes) => Object.assign({}, game, changes);
  const withSeat = (values, seat, value) => values.map((v, i) => (i === seat - 1 ? value : v));
  const alive = (game, seat) => game.exits[seat - 1] === null;
  const inPlay = (game) => SEATS.filter((seat) => alive(game, seat));
  const rolesDealt = (game) => game.roles.every((role) => role !== null);
  const nominees = (game) => game.nominations.map((n) => n.target);

  function speaker(game) {
    if ((game.phase === "speeches" || game.phase === "split_speeches") && game.position < game.order.length) return game.order[game.position];
    if ((game.phase === "last_words" || game.phase === "morning_last_word") && game.leaving.length) return game.leaving[0];
    return null;
  }

  function seatInRange(seat) {
    if (!SEATS.includes(seat)) throw new Refused("game-log-bad-seat", { seat });
  }

  function aliveSeat(game, seat) {
    seatInRange(seat);
    if (!alive(game, seat)) throw new Refused("game-log-seat-out", { seat });
  }

  // --- the end (end.py) ----------------------------------------------------------------------

  function detectEnd(game) {
    if (!rolesDealt(game)) return null;
    const players = inPlay(game);
    const black = players.filter((seat) => SIDE[game.roles[seat - 1]] === "black").length;
    if (black === 0) return "black_out";
    if (black >= players.length - black) return "parity";
    return null;
  }

  function offerEnd(game) {
    if (game.phase === "finished" || game.phase === "introduction") return game;
    const detected = detectEnd(game);
    if (detected === null) {
      if (game.phase === "end_detected" && game.detected !== null) return game;
      return put(game, { detected: null });
    }
    return put(game, { phase: "end_detected", detected });
  }

  // --- the day (day.py) ----------------------------------------------------------------------

  function nextInPlay(game, after) {
    for (let step = 1; step <= 10; step += 1) {
      const seat = ((after + step - 1) % 10) + 1;
      if (alive(game, seat)) return seat;
    }
    throw new Refused("game-log-nobody-left");
  }

  function orderFrom(game, first) {
    const order = [];
    for (let step = 0; step < 10; step += 1) {
      const seat = ((first + step - 1) % 10) + 1;
      if (alive(game, seat)) order.push(seat);
    }
    return order;
  }

  function beginTurn(game) {
    const now = speaker(game);
    if (game.phase === "speeches" && now !== null && game.silenced.includes(now)) {
      return put(game, { silent: true, silenced: game.silenced.filter((s) => s !== now) });
    }
    return put(game, { silent: false });
  }

  function startDay(game) {
    const day = game.day + 1;
    const first = nextInPlay(game, day === 1 ? 0 : game.first_speaker);
    return beginTurn(put(game, {
      phase: "speeches", day, first_speaker: first, order: orderFrom(game, first), position: 0,
      nominations: [], no_vote: false, candidates: [], leaving: [], shot: null,
    }));
  }

  function nextSpeaker(game, rules, started) {
    const position = started === false ? game.position : game.position + 1;
    game = put(game, { position });
    if (position < game.order.length) return beginTurn(game);
    if (game.phase === "split_speeches") return put(game, { phase: "revote", silent: false });
    return afterSpeeches(put(game, { silent: false }), rules);
  }

  function afterSpeeches(game, rules) {
    const candidates = nominees(game).filter((seat) => alive(game, seat));
    if (game.no_vote || !candidates.length) return toNight(game);
    if (candidates.length === 1 && game.day === 1 && !rules.first_day_single_candidate_votes) return toNight(game);
    return put(game, { phase: "voting", candidates });
  }

  function nominate(game, action) {
    aliveSeat(game, action.by);
    aliveSeat(game, action.target);
    if (action.by !== speaker(game)) throw new Refused("game-log-not-speaker", { seat: action.by });
    if (game.nominations.some((n) => n.by === action.by)) throw new Refused("game-log-nominated-already", { seat: action.by });
    if (nominees(game).includes(action.target)) throw new Refused("game-log-candidate-already", { seat: action.target });
    return put(game, { nominations: [...game.nominations, { by: action.by, target: action.target }] });
  }

  function withdraw(game, action, rules) {
    if (!rules.withdraw_nomination) throw new Refused("game-log-no-withdrawal");
    if (action.by !== speaker(game) || !game.nominations.some((n) => n.by === action.by)) {
      throw new Refused("game-log-nothing-to-withdraw", { seat: action.by });
    }
    return put(game, { nominations: game.nominations.filter((n) => n.by !== action.by) });
  }

  function castVotes(game, action, rules) {
    const voters = inPlay(game).length;
    const counts = action.counts;
    if (!Array.isArray(counts) || counts.length !== game.candidates.length || counts.some((c) => !Number.isInteger(c) || c < 0)) {
      throw new Refused("game-log-bad-votes");
    }
    const total = counts.reduce((a, b) => a + b, 0);
    if (total !== voters) throw new Refused("game-log-votes-total", { total, voters });
    const ballots = action.ballots === undefined ? null : action.ballots;
    if (!rules.record_ballots && ballots !== null) throw new Refused("game-log-bad-ballots");
    if (rules.record_ballots) checkBallots(game, ballots, counts);
    game = put(game, { votes: [...game.votes, { day: game.day, candidates: game.candidates, counts, ballots }] });
    const top = Math.max(...counts);
    const leaders = game.candidates.filter((seat, index) => counts[index] === top);
    if (leaders.length === 1) return votedOut(game, leaders);
    if (game.phase === "voting" && rules.split_vote) {
      return beginTurn(put(game, { phase: "split_speeches", candidates: leaders, order: leaders, position: 0 }));
    }
    if (game.phase === "revote" && rules.all_or_nobody_vote && voters >= rules.all_or_nobody_min_players) {
      return put(game, { phase: "all_or_nobody", candidates: leaders });
    }
    return toNight(game);
  }

  function checkBallots(game, ballots, counts) {
    // Who voted for whom: each player in play once, for a candidate; the counts agree.
    const players = inPlay(game);
    if (!Array.isArray(ballots) || ballots.length !== players.length) throw new Refused("game-log-bad-ballots");
    const seen = new Set();
    const tally = game.candidates.map(() => 0);
    for (const ballot of ballots) {
      const index = game.candidates.indexOf(ballot && ballot.target);
      if (!ballot || !players.includes(ballot.voter) || seen.has(ballot.voter) || index < 0) throw new Refused("game-log-bad-ballots");
      seen.add(ballot.voter);
      tally[index] += 1;
    }
    if (tally.some((count, index) => count !== counts[index])) throw new Refused("game-log-bad-ballots");
  }

  function allOrNobody(game, action) {
    const voters = inPlay(game).length;
    if (!Number.isInteger(action.votes) || action.votes < 0 || action.votes > voters) {
      throw new Refused("game-log-votes-total", { total: action.votes, voters });
    }
    game = put(game, { votes: [...game.votes, { day: game.day, candidates: game.candidates, counts: [action.votes], all_or_nobody: true }] });
    if (action.votes * 2 > voters) return votedOut(game, game.candidates);
    return toNight(game);
  }

  function votedOut(game, seats) {
    let exits = game.exits;
    for (const seat of seats) exits = withSeat(exits, seat, "voted");
    game = offerEnd(put(game, { exits, candidates: [], leaving: seats }));
    if (game.detected !== null) return game;
    return put(game, { phase: "last_words" });
  }

  function proceedLastWord(game) {
    game = put(game, { leaving: game.leaving.slice(1) });
    if (game.leaving.length) return game;
    return game.phase === "last_words" ? toNight(game) : startDay(game);
  }

  function toNight(game) {
    return put(game, { phase: "shot", night: game.day, order: [], position: 0, silent: false, candidates: [], leaving: [], shot: null });
  }

  // --- the night (night.py) ------------------------------------------------------------------

  function shoot(game, action, rules) {
    const nights = rules.special_end_nights;
    if (action.target === null) {
      const quiet = inPlay(game).length === 4 ? game.four_players_quiet_nights + 1 : 0;
      game = put(game, { shot: null, misses_in_row: game.misses_in_row + 1, four_players_quiet_nights: quiet });
    } else {
      aliveSeat(game, action.target);
      game = put(game, { shot: action.target, misses_in_row: 0, four_players_quiet_nights: 0, exits: withSeat(game.exits, action.target, "killed") });
      if (game.first_killed === null) game = put(game, { first_killed: action.target, first_killed_night: game.night });
    }
    if (rules.special_ends.includes("missed_nights") && game.misses_in_row >= nights) return put(game, { phase: "end_detected", detected: "missed_nights" });
    if (rules.special_ends.includes("four_players_three_nights") && game.four_players_quiet_nights >= nights) {
      return put(game, { phase: "end_detected", detected: "four_players_three_nights" });
    }
    return toCheck(game, "don_check", rules);
  }

  function roleInPlay(game, role) {
    if (!rolesDealt(game)) return true;
    const seat = game.roles.indexOf(role) + 1;
    return alive(game, seat) || seat === game.shot;
  }

  function toCheck(game, phase, rules) {
    if (phase === "don_check" && !roleInPlay(game, "don")) phase = "sheriff_check";
    if (phase === "sheriff_check" && !roleInPlay(game, "sheriff")) return morning(game, rules);
    return put(game, { phase });
  }

  function check(game, action, rules) {
    seatInRange(action.seat);
    const by = game.phase === "don_check" ? "don" : "sheriff";
    if (game.checks.some((c) => c.night === game.night && c.by === by)) throw new Refused("game-log-checked-already");
    return afterCheck(put(game, { checks: [...game.checks, { night: game.night, by, seat: action.seat }] }), rules);
  }

  function afterCheck(game, rules) {
    return game.phase === "don_check" ? toCheck(game, "sheriff_check", rules) : morning(game, rules);
  }

  function morning(game, rules) {
    const victim = game.shot;
    if (victim !== null && victim === game.first_killed && mayMakeBestMove(game, rules)) {
      return put(game, { phase: "best_move", leaving: [victim] });
    }
    return lastWordOrDay(game);
  }

  function lastWordOrDay(game) {
    game = offerEnd(game);
    if (game.detected !== null) return game;
    if (game.shot === null) return startDay(game);
    return put(game, { phase: "morning_last_word", leaving: [game.shot] });
  }

  function mayMakeBestMove(game, rules) {
    if (rules.best_move_first_night_only && game.first_killed_night !== 1) return false;
    const role = game.roles[game.first_killed - 1];
    return role === null || rules.best_move_roles.includes(role);
  }

  // --- at any moment (play.py) ---------------------------------------------------------------

  function deal(game, roles) {
    if (!Array.isArray(roles) || roles.length !== 10) throw new Refused("game-log-bad-action");
    for (const [role, expected] of Object.entries(ROLE_COUNTS)) {
      const count = roles.filter((r) => r === role).length;
      if (count > expected) throw new Refused("protocol-role-count", { role, count, expected });
    }
    return offerEnd(put(game, { roles: roles.slice() }));
  }

  function inGame(game, seat) {
    if (game.phase === "finished") throw new Refused("game-log-game-over");
    aliveSeat(game, seat);
  }

  function remove(game, seat, how) {
    game = put(game, {
      exits: withSeat(game.exits, seat, how),
      silenced: game.silenced.filter((s) => s !== seat),
      leaving: game.leaving.filter((s) => s !== seat),
    });
    return DAY_PHASES.includes(game.phase) ? put(game, { no_vote: true }) : game;
  }

  function foul(game, seat, rules) {
    inGame(game, seat);
    const fouls = game.fouls[seat - 1] + 1;
    game = put(game, { fouls: withSeat(game.fouls, seat, fouls) });
    if (fouls >= rules.fouls_for_removal) return remove(game, seat, "fouls");
    if (rules.fouls_for_silence !== null && fouls === rules.fouls_for_silence) return put(game, { silenced: [...game.silenced, seat] });
    return game;
  }

  function technicalFoul(game, seat) {
    inGame(game, seat);
    return put(game, { technical: withSeat(game.technical, seat, game.technical[seat - 1] + 1) });
  }

  function afterRemoval(before, changed, rules) {
    const removed = SEATS.filter((s) => alive(before, s) && !alive(changed, s));
    if (!removed.length || changed.phase === "end_detected" || changed.phase === "finished") return changed;
    const seat = removed[0];
    const after = offerEnd(changed);
    if (after.detected !== null) return after;
    const phase = after.phase;
    if (["voting", "revote", "all_or_nobody", "split_speeches"].includes(phase) || (phase === "speeches" && rules.removal_ends_day)) return toNight(after);
    if (phase !== "speeches") return after;
    const index = after.order.indexOf(seat);
    if (index < 0) return after;
    const position = after.position - (index < after.position ? 1 : 0);
    const moved = put(after, { order: after.order.filter((s) => s !== seat), position });
    return index === after.position ? nextSpeaker(moved, rules, false) : moved;
  }

  function finish(game, action) {
    if (game.phase === "finished") throw new Refused("game-log-game-over");
    const detected = game.detected || detectEnd(game);
    const confirmed = detected !== null && action.end === detected && action.winner === END_WINNER[detected];
    const comment = String(action.comment || "").trim();
    if (!confirmed && !comment) throw new Refused("game-log-finish-needs-comment");
    const bestMove = game.best_move !== null || !game.first_killed ? game.best_move : [];
    return put(game, { best_move: bestMove, phase: "finished", winner: action.winner, end: action.end, end_comment: comment });
  }

  function extra(game, action) {
    seatInRange(action.seat);
    if (game.phase !== "finished") throw new Refused("game-log-extra-at-end");
    return put(game, { extra: withSeat(game.extra, action.seat, String(action.points)) });
  }

  const PHASE_ACTIONS = {
    "introduction:next": (g, a, r) => startDay(put(g, { day: 0 }), r),
    "speeches:next": (g, a, r) => nextSpeaker(g, r),
    "speeches:nominate": nominate,
    "speeches:withdraw": withdraw,
    "split_speeches:next": (g, a, r) => nextSpeaker(g, r),
    "voting:votes": castVotes,
    "revote:votes": castVotes,
    "all_or_nobody:all_or_nobody": allOrNobody,
    "last_words:next": proceedLastWord,
    "morning_last_word:next": proceedLastWord,
    "shot:shot": shoot,
    "don_check:check": check,
    "don_check:next": (g, a, r) => afterCheck(g, r),
    "sheriff_check:check": check,
    "sheriff_check:next": (g, a, r) => afterCheck(g, r),
    "best_move:best_move": (g, a) => lastWordOrDay(put(g, { best_move: a.seats.slice() })),
    "best_move:next": (g) => lastWordOrDay(put(g, { best_move: [] })),
  };

  function apply(game, action, rules) {
    switch (action.kind) {
      case "roles": return deal(game, action.roles);
      case "foul": return afterRemoval(game, foul(game, action.seat, rules), rules);
      case "technical_foul": return technicalFoul(game, action.seat);
      case "disqualify": inGame(game, action.seat); return afterRemoval(game, remove(game, action.seat, "disqualified"), rules);
      case "extra": return extra(game, action);
      case "finish": return finish(game, action);
      default: break;
    }
    if (game.phase === "end_detected" || game.phase === "finished") throw new Refused("game-log-game-over");
    const handler = PHASE_ACTIONS[`${game.phase}:${action.kind}`];
    if (!handler) throw new Refused("game-log-not-now", { phase: game.phase });
    return handler(game, action, rules);
  }

  function replay(actions, rules) {
    return actions.reduce((game, action) => apply(game, action, rules), fresh());
  }

  function timerSeconds(game, rules) {
    switch (game.phase) {
      case "introduction": return rules.introduction_seconds;
      case "speeches": return game.silent ? 0 : rules.speech_seconds;
      case "split_speeches": return rules.split_speech_seconds;
      case "last_words": return game.leaving.length > 1 ? rules.split_last_word_seconds : rules.last_word_seconds;
      case "morning_last_word": return rules.last_word_seconds;
      case "don_check":
      case "sheriff_check": return rules.check_seconds;
      default: return null;
    }
  }

  const api = { Refused, fresh, apply, replay, speaker, inPlay, timerSeconds, detectEnd, END_WINNER };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.MafiaRules = api;
})(typeof window !== "undefined" ? window : globalThis);
