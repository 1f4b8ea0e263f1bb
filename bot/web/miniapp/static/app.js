// The judge's live game. Offline first: every tap is applied on the phone at once (rules.js),
// kept in the page's storage and sent to the server in order (sync.js); the screen shows the
// game the taps make (view.js) and how many of them the server has not saved yet.
"use strict";

(function () {
  const gameId = Number(location.pathname.split("/").pop());
  const launch = new URLSearchParams(location.hash.slice(1));
  const tg = window.Telegram && window.Telegram.WebApp;
  const initData = (tg && tg.initData) || launch.get("tgWebAppData") || "";
  const Controls = window.MafiaControls;
  const SPEECHES = ["speeches", "split_speeches", "last_words", "morning_last_word"];

  // What the page shows and the judge's choices not yet sent (shared with controls.js).
  const ui = {
    view: null, mode: "play", roleTool: "don", roles: null, picked: [], extraSeat: null,
    votes: [], ballots: {}, ballotStep: 0, otherwise: false, said: "",
    T, send, render, dealRoles,
  };
  let timer = { key: "", left: null, running: false, warned: false, handle: null };

  const $ = (id) => document.getElementById(id);
  function T(key, args) {
    return window.MafiaView.fill((ui.view && ui.view.texts[key]) || key, args);
  }

  applyTheme();
  keepForOffline();

  function keepForOffline() {
    // The page and its scripts in the cache the service worker (sw.js) answers from offline.
    if (!("serviceWorker" in navigator) || !window.caches) return;
    const files = ["app.css", "theme.js", "rules.js", "sync.js", "view.js", "controls.js", "app.js"].map((f) => `/app/static/${f}`);
    navigator.serviceWorker.register("/app/sw.js", { scope: "/app/" })
      .then(() => caches.open("mafiatour-miniapp-v1"))
      .then((cache) => cache.addAll([location.pathname, ...files]))
      .then(() => { document.body.dataset.cached = "1"; })
      .catch(() => undefined);
  }

  function applyTheme() {
    let theme = (tg && tg.themeParams) || null;
    if (!theme && launch.get("tgWebAppThemeParams")) {
      try { theme = JSON.parse(launch.get("tgWebAppThemeParams")); } catch (e) { theme = null; }
    }
    window.MafiaTheme.apply(theme);
    if (tg && tg.ready) { tg.ready(); tg.expand && tg.expand(); }
  }

  function postEvent(type, data) {
    // What Telegram's own script does: the native clients' proxy, or the web client's frame.
    const payload = JSON.stringify(data || {});
    if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, payload);
    else if (window.parent !== window) window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), "*");
  }

  function buzz(strong) {
    postEvent("web_app_trigger_haptic_feedback", { type: "notification", notification_type: strong ? "error" : "warning" });
    if (navigator.vibrate) navigator.vibrate(strong ? [300, 100, 300] : 200);
    try {
      const audio = new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      tone.frequency.value = strong ? 660 : 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + (strong ? 0.6 : 0.2));
    } catch (e) { /* no sound here */ }
  }

  function readerLocale() {
    // Before the server knows who reads: the language the launch data names, or the browser's.
    try {
      const user = JSON.parse(new URLSearchParams(initData).get("user") || "{}");
      if (user.language_code) return user.language_code.slice(0, 2);
    } catch (e) { /* unreadable: the browser's */ }
    return (navigator.language || "ru").slice(0, 2);
  }

  async function call(method, path, body) {
    const response = await fetch(`/app/api/games/${gameId}${path}`, {
      method,
      headers: { Authorization: `tma ${initData}`, "Content-Type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await response.json();
    if (response.status === 200 || response.status === 409 || response.status === 422) return data;
    const said = data.message || (data.messages && (data.messages[readerLocale()] || data.messages.ru));
    throw Object.assign(new Error(said || response.statusText), { shown: said || response.statusText, status: response.status });
  }

  const sync = window.MafiaSync.create({ gameId, call, onChange: () => { if (sync && sync.server) show(); } });

  function send(action) {
    ui.said = "";
    try {
      sync.tap(action);
    } catch (error) {
      if (!(error instanceof window.MafiaRules.Refused)) throw error;
      ui.said = error.code === "conflict" ? "" : T(error.code, error.args);
      render();
    }
  }

  function undo() {
    ui.said = "";
    sync.undo();
  }

  async function confirmProtocol() {
    try { await call("POST", "/confirm", {}); await sync.refresh(); } catch (error) { fail(error); }
  }

  function fail(error) {
    const box = $("message");
    box.hidden = false;
    box.textContent = error.shown || (ui.view ? T("offline") : String(error.message || error));
  }

  // The view: the server's as it came, or redrawn from the queued taps.
  function current() {
    const server = sync.server;
    if (!sync.pending || sync.conflict) return server;
    return window.MafiaView.derive(server, sync.local(), sync.entries());
  }

  function show() {
    const previous = ui.view;
    const view = current();
    ui.view = view;
    document.documentElement.lang = view.texts.title && /[а-я]/i.test(view.texts.title) ? "ru" : "en";
    const step = (v) => `${v.phase}:${v.day}:${v.night}:${v.candidates.join(",")}`;
    if (!previous || previous.phase !== view.phase) { ui.picked = []; ui.otherwise = false; ui.extraSeat = null; }
    if (!previous || step(previous) !== step(view)) { ui.votes = []; ui.ballots = {}; ui.ballotStep = 0; }
    render();
  }

  // --- the timer: it starts with each speech and moves on with "Next" -------------------------

  function syncTimer() {
    const view = ui.view;
    const key = `${view.phase}:${view.day}:${view.speaker}:${view.leaving.join(",")}:${view.position}`;
    if (key !== timer.key) {
      clearInterval(timer.handle);
      timer = { key, left: view.timer, running: false, warned: false, handle: null };
      if (SPEECHES.includes(view.phase) && view.timer && !view.confirmed) startTimer();
    }
    drawTimer();
  }

  function drawTimer() {
    const box = $("timer");
    if (timer.left === null || timer.left === undefined) { box.textContent = "—"; }
    else {
      const left = Math.max(0, timer.left);
      box.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    }
    box.classList.toggle("warning", timer.left !== null && timer.left <= ui.view.warning);
    $("timer-toggle").textContent = timer.running ? T("pause-timer") : T("start-timer");
    $("timer-toggle").disabled = !timer.left;
    $("timer-reset").textContent = T("reset-timer");
  }

  function startTimer() {
    timer.running = true;
    timer.handle = setInterval(() => {
      timer.left -= 1;
      if (!timer.warned && timer.left <= ui.view.warning && timer.left > 0) { timer.warned = true; buzz(false); }
      if (timer.left <= 0) { clearInterval(timer.handle); timer.running = false; buzz(true); }
      drawTimer();
    }, 1000);
  }

  function toggleTimer() {
    if (timer.running) { clearInterval(timer.handle); timer.running = false; }
    else startTimer();
    drawTimer();
  }

  function resetTimer() {
    clearInterval(timer.handle);
    timer = { key: timer.key, left: ui.view.timer, running: false, warned: false, handle: null };
    drawTimer();
  }

  // --- drawing -----------------------------------------------------------------------------

  function render() {
    const view = ui.view;
    // What the page shows now, for the people and the tests that follow it: the server's
    // saved version, the taps not saved yet, the taps the game has.
    document.body.dataset.version = String(sync.server.version);
    document.body.dataset.pending = String(sync.pending);
    document.body.dataset.taps = String(view.log.length);
    document.body.dataset.phase = view.phase;
    document.body.dataset.conflict = sync.conflict ? "1" : "";
    document.body.dataset.candidates = view.candidates.join(",");
    $("title").textContent = view.title;
    $("phase").textContent = view.phase_text;
    renderSync();
    renderMessage();
    $("mode-play").textContent = "▶";
    $("mode-fouls").textContent = T("foul");
    $("mode-roles").textContent = T("roles");
    $("undo").textContent = T("undo");
    $("undo").disabled = view.confirmed || view.log.length === 0 || Boolean(sync.conflict);
    const fouling = ["fouls", "technical", "disqualify"].includes(ui.mode);
    for (const name of ["play", "fouls", "roles"]) $(`mode-${name}`).classList.toggle("active", ui.mode === name || (name === "fouls" && fouling));
    $("log-title").textContent = `${T("log")} (${view.log.length})`;
    syncTimer();
    renderSeats();
    Controls.render(ui, $("controls"));
    renderSummary();
    renderLog();
  }

  function renderSync() {
    const box = $("sync");
    box.classList.toggle("pending", sync.pending > 0);
    box.textContent = sync.pending ? T("pending", { count: sync.pending }) : T("saved");
    if (sync.pending && !sync.online) box.textContent += ` · ${T("offline")}`;
  }

  function renderMessage() {
    const box = $("message");
    box.replaceChildren();
    const conflict = sync.conflict;
    if (conflict) {
      const text = conflict.reason
        ? T("refused-queued", { reason: conflict.reason, count: conflict.count })
        : T("conflict", { count: conflict.count });
      box.append(document.createTextNode(text), Controls.button(T("conflict-discard", { count: conflict.count }), () => sync.discard(), { id: "conflict-discard" }));
    } else {
      box.textContent = ui.said || sync.blocked || (!sync.pending && (ui.view.refused || ui.view.notice)) || "";
    }
    box.hidden = !box.textContent;
  }

  function seatMarks(seat) {
    const view = ui.view;
    const marks = [];
    const role = ui.roles ? ui.roles[seat.seat - 1] : seat.role;
    if (role) marks.push(T(`role-${role}`));
    if (seat.fouls) marks.push("!".repeat(seat.fouls));
    if (seat.technical) marks.push(T("technical-marks", { count: seat.technical }));
    if (seat.silenced) marks.push(T("silenced"));
    if (seat.out) marks.push(T(`out-${seat.out}`));
    const nominated = view.nominations.find((n) => n.target === seat.seat);
    if (nominated) marks.push(`⇐ ${nominated.by}`);
    if (ui.ballots[seat.seat]) marks.push(`→ ${ui.ballots[seat.seat]}`);
    if (seat.extra !== "0") marks.push(`+${seat.extra}`);
    return marks.join(" · ");
  }

  function renderSeats() {
    const box = $("seats");
    box.replaceChildren();
    for (const seat of ui.view.seats) {
      const tile = document.createElement("div");
      tile.className = "tile";
      const element = document.createElement("button");
      element.type = "button";
      element.className = "seat";
      element.dataset.seat = String(seat.seat);
      const role = ui.roles ? ui.roles[seat.seat - 1] : seat.role;
      if (role) tile.classList.add(`role-${role}`);
      if (seat.out) tile.classList.add("out");
      if (seat.seat === ui.view.speaker) tile.classList.add("speaker");
      if (ui.picked.includes(seat.seat) || ui.extraSeat === seat.seat || ui.ballots[seat.seat]) element.classList.add("picked");
      const name = document.createElement("span");
      name.className = "name";
      const number = document.createElement("span");
      number.className = "num";
      number.textContent = `${seat.seat}. `;
      name.append(number, document.createTextNode(seat.nickname));
      const marks = document.createElement("span");
      marks.className = "marks";
      marks.textContent = seatMarks(seat) || "\u00a0";
      element.append(name, marks);
      element.addEventListener("click", () => tapSeat(seat));
      tile.append(element);
      if (!seat.out && !ui.view.confirmed && ui.view.phase !== "finished") {
        const foul = Controls.button(T("foul-tap"), () => send({ kind: "foul", seat: seat.seat }), { id: `foul-${seat.seat}` });
        foul.className = "foul";
        foul.dataset.foul = String(seat.seat);
        tile.append(foul);
      }
      box.append(tile);
    }
  }

  function tapRole(seat) {
    ui.roles = ui.roles || ui.view.seats.map((s) => s.role);
    ui.roles[seat.seat - 1] = ui.roles[seat.seat - 1] === ui.roleTool ? null : ui.roleTool;
    const left = { don: 1, sheriff: 1, mafia: 2 };
    for (const r of ui.roles) if (r && left[r] !== undefined) left[r] -= 1;
    // The four roles placed: the others are civilians, and the roles are dealt at once.
    if (Object.values(left).every((n) => n === 0) && ui.roleTool !== "civilian") return dealRoles();
    if (left[ui.roleTool] <= 0) ui.roleTool = ["don", "sheriff", "mafia"].find((r) => left[r] > 0) || "civilian";
    return render();
  }

  function dealRoles() {
    let dealt = ui.roles || ui.view.seats.map((s) => s.role);
    const special = dealt.filter((r) => r && r !== "civilian").length;
    if (special === 4) dealt = dealt.map((r) => r || "civilian");
    ui.roles = null;
    ui.mode = "play";
    ui.roleTool = "don";
    send({ kind: "roles", roles: dealt });
  }

  function tapSeat(seat) {
    const view = ui.view;
    if (view.confirmed) return undefined;
    if (ui.mode === "fouls") return send({ kind: "foul", seat: seat.seat });
    if (ui.mode === "technical") return send({ kind: "technical_foul", seat: seat.seat });
    if (ui.mode === "disqualify") { ui.mode = "fouls"; return send({ kind: "disqualify", seat: seat.seat }); }
    if (ui.mode === "roles") return tapRole(seat);
    switch (view.phase) {
      case "speeches":
        return send({ kind: "nominate", by: view.speaker, target: seat.seat });
      case "voting":
      case "revote":
        return tapBallot(seat);
      case "shot":
        return send({ kind: "shot", target: seat.seat });
      case "don_check":
      case "sheriff_check":
        return send({ kind: "check", seat: seat.seat });
      case "best_move":
        if (ui.picked.includes(seat.seat)) ui.picked = ui.picked.filter((s) => s !== seat.seat);
        else if (ui.picked.length < 3) ui.picked.push(seat.seat);
        // The third seat named ends the best move (fewer: "Done").
        if (ui.picked.length === 3) return send({ kind: "best_move", seats: ui.picked.slice() });
        return render();
      case "finished":
        ui.extraSeat = ui.extraSeat === seat.seat ? null : seat.seat;
        return render();
      default:
        return undefined;
    }
  }

  function tapBallot(seat) {
    const view = ui.view;
    if (!view.rules.record_ballots || seat.out) return undefined;
    const target = view.candidates[Math.min(ui.ballotStep, view.candidates.length - 1)];
    if (ui.ballots[seat.seat] === target) delete ui.ballots[seat.seat];
    else if (!ui.ballots[seat.seat]) ui.ballots[seat.seat] = target;
    return render();
  }

  function renderSummary() {
    const box = $("summary");
    const view = ui.view;
    box.replaceChildren();
    if (view.phase !== "finished" && !view.confirmed) return;
    if (sync.pending) { box.append(Controls.hint(T("waiting-server"))); return; }
    if (view.scores) {
      const table = document.createElement("table");
      table.id = "scores";
      for (const score of view.scores) {
        const line = table.insertRow();
        line.insertCell().textContent = `${score.seat}. ${score.nickname}`;
        line.insertCell().textContent = score.total;
        const parts = [
          T(score.won ? "part-win" : "part-loss", { points: score.win }),
          score.best_move !== "0" ? T("part-best-move", { points: score.best_move }) : "",
          score.extra !== "0" ? T("part-extra", { points: score.extra }) : "",
          score.penalty !== "0" ? T("part-penalty", { points: score.penalty }) : "",
        ];
        line.insertCell().textContent = parts.filter(Boolean).join(" · ");
      }
      box.append(table);
    }
    if (view.missing.length) {
      box.append(Controls.hint(T("missing")));
      for (const item of view.missing) box.append(Controls.hint(`• ${item}`));
    }
    if (!view.confirmed) {
      box.append(Controls.button(T("confirm"), confirmProtocol, { id: "confirm", primary: true, disabled: !view.ready }));
    }
  }

  function renderLog() {
    const list = $("log");
    list.replaceChildren();
    for (const entry of ui.view.log) {
      const item = document.createElement("li");
      const fields = Object.entries(entry).filter(([k]) => !["kind", "at", "judge", "pending"].includes(k)).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
      item.textContent = `${entry.pending ? "⏳" : entry.at.slice(11, 19)} ${entry.kind} ${fields.join(" ")}`;
      list.append(item);
    }
  }

  $("mode-play").addEventListener("click", () => { ui.mode = "play"; ui.roles = null; render(); });
  $("mode-fouls").addEventListener("click", () => { ui.mode = ["fouls", "technical", "disqualify"].includes(ui.mode) ? "play" : "fouls"; render(); });
  $("mode-roles").addEventListener("click", () => { ui.mode = ui.mode === "roles" ? "play" : "roles"; ui.roles = null; render(); });
  $("undo").addEventListener("click", undo);
  $("timer-toggle").addEventListener("click", toggleTimer);
  $("timer-reset").addEventListener("click", resetTimer);
  if (sync.server) show();
  sync.refresh().catch(fail);
})();
