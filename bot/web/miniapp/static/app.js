// The judge's live game. Everything is stored on the server at every tap: this page only
// shows the game the API returns and sends the judge's actions (with the version it saw).
"use strict";

(function () {
  const gameId = Number(location.pathname.split("/").pop());
  const launch = new URLSearchParams(location.hash.slice(1));
  const tg = window.Telegram && window.Telegram.WebApp;
  const initData = (tg && tg.initData) || launch.get("tgWebAppData") || "";

  let view = null;
  let mode = "play"; // play | fouls | disqualify | roles
  let roleTool = "don";
  let roles = null; // the roles being dealt, before they are sent
  let picked = []; // best move seats
  let extraSeat = null;
  let votes = [];
  let otherwise = false;
  let timer = { key: "", left: null, running: false, warned: false, handle: null };

  const $ = (id) => document.getElementById(id);
  const T = (key, args) => {
    let text = (view && view.texts[key]) || key;
    for (const [name, value] of Object.entries(args || {})) text = text.split(`{${name}}`).join(String(value));
    return text;
  };

  applyTheme();

  function applyTheme() {
    let theme = (tg && tg.themeParams) || null;
    if (!theme && launch.get("tgWebAppThemeParams")) {
      try { theme = JSON.parse(launch.get("tgWebAppThemeParams")); } catch (e) { theme = null; }
    }
    for (const [name, value] of Object.entries(theme || {})) {
      document.documentElement.style.setProperty(`--tg-theme-${name.replace(/_/g, "-")}`, value);
    }
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
    throw Object.assign(new Error(said || response.statusText), { shown: said });
  }

  async function load() {
    try {
      show(await call("GET", ""));
    } catch (error) {
      fail(error);
    }
  }

  async function send(action) {
    try {
      show(await call("POST", "/actions", { version: view.version, action }));
    } catch (error) {
      fail(error);
    }
  }

  async function undo() {
    try { show(await call("POST", "/undo", { version: view.version })); } catch (error) { fail(error); }
  }

  async function confirmProtocol() {
    try { show(await call("POST", "/confirm", {})); } catch (error) { fail(error); }
  }

  function fail(error) {
    const box = $("message");
    box.hidden = false;
    box.textContent = error.shown || (view ? T("offline") : String(error.message || error));
  }

  function show(data) {
    const previous = view;
    view = data;
    document.documentElement.lang = data.texts.title && /[а-я]/i.test(data.texts.title) ? "ru" : "en";
    if (!previous || previous.phase !== data.phase) { picked = []; otherwise = false; extraSeat = null; }
    if (!previous || previous.version !== data.version) votes = [];
    render();
  }

  // --- the timer ---------------------------------------------------------------------------

  function syncTimer() {
    const key = `${view.phase}:${view.day}:${view.speaker}:${view.leaving.join(",")}:${view.position}`;
    if (key !== timer.key) {
      clearInterval(timer.handle);
      timer = { key, left: view.timer, running: false, warned: false, handle: null };
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
    box.classList.toggle("warning", timer.left !== null && timer.left <= view.warning);
    $("timer-toggle").textContent = timer.running ? T("pause-timer") : T("start-timer");
    $("timer-toggle").disabled = !timer.left;
    $("timer-reset").textContent = T("reset-timer");
  }

  function toggleTimer() {
    if (timer.running) { clearInterval(timer.handle); timer.running = false; drawTimer(); return; }
    timer.running = true;
    timer.handle = setInterval(() => {
      timer.left -= 1;
      if (!timer.warned && timer.left <= view.warning && timer.left > 0) { timer.warned = true; buzz(false); }
      if (timer.left <= 0) { clearInterval(timer.handle); timer.running = false; buzz(true); }
      drawTimer();
    }, 1000);
    drawTimer();
  }

  function resetTimer() {
    clearInterval(timer.handle);
    timer = { key: timer.key, left: view.timer, running: false, warned: false, handle: null };
    drawTimer();
  }

  // --- drawing -----------------------------------------------------------------------------

  function button(text, onClick, options) {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = text;
    if (options && options.id) element.id = options.id;
    if (options && options.primary) element.classList.add("primary");
    if (options && options.active) element.classList.add("active");
    if (options && options.disabled) element.disabled = true;
    element.addEventListener("click", onClick);
    return element;
  }

  function row(...children) {
    const element = document.createElement("div");
    element.className = "row";
    for (const child of children) element.append(child);
    return element;
  }

  function hint(text) {
    const element = document.createElement("div");
    element.className = "hint";
    element.textContent = text;
    return element;
  }

  function render() {
    // What the page shows now, for the people and the tests that follow it.
    document.body.dataset.version = String(view.version);
    document.body.dataset.phase = view.phase;
    $("title").textContent = view.title;
    $("phase").textContent = view.phase_text;
    const box = $("message");
    const said = view.refused || view.notice || "";
    box.hidden = !said;
    box.textContent = said;
    $("mode-play").textContent = "▶";
    $("mode-fouls").textContent = T("foul");
    $("mode-roles").textContent = T("roles");
    $("undo").textContent = T("undo");
    $("undo").disabled = view.confirmed || view.log.length === 0;
    for (const name of ["play", "fouls", "roles"]) $(`mode-${name}`).classList.toggle("active", mode === name || (name === "fouls" && mode === "disqualify"));
    $("log-title").textContent = `${T("log")} (${view.log.length})`;
    syncTimer();
    renderSeats();
    renderControls();
    renderSummary();
    renderLog();
  }

  function seatMarks(seat) {
    const marks = [];
    const role = roles ? roles[seat.seat - 1] : seat.role;
    if (role) marks.push(T(`role-${role}`));
    if (seat.fouls) marks.push("!".repeat(seat.fouls));
    if (seat.silenced) marks.push(T("silenced"));
    if (seat.out) marks.push(T(`out-${seat.out}`));
    const nominated = view.nominations.find((n) => n.target === seat.seat);
    if (nominated) marks.push(`⇐ ${nominated.by}`);
    if (seat.extra !== "0") marks.push(`+${seat.extra}`);
    return marks.join(" · ");
  }

  function renderSeats() {
    const box = $("seats");
    box.replaceChildren();
    for (const seat of view.seats) {
      const element = document.createElement("button");
      element.type = "button";
      element.className = "seat";
      element.dataset.seat = String(seat.seat);
      const role = roles ? roles[seat.seat - 1] : seat.role;
      if (role) element.classList.add(`role-${role}`);
      if (seat.out) element.classList.add("out");
      if (seat.seat === view.speaker) element.classList.add("speaker");
      if (picked.includes(seat.seat) || extraSeat === seat.seat) element.classList.add("picked");
      const name = document.createElement("span");
      name.className = "name";
      name.innerHTML = "";
      const number = document.createElement("span");
      number.className = "num";
      number.textContent = `${seat.seat}. `;
      name.append(number, document.createTextNode(seat.nickname));
      const marks = document.createElement("span");
      marks.className = "marks";
      marks.textContent = seatMarks(seat) || "\u00a0";
      element.append(name, marks);
      element.addEventListener("click", () => tapSeat(seat));
      box.append(element);
    }
  }

  function tapSeat(seat) {
    if (view.confirmed) return;
    if (mode === "fouls") return send({ kind: "foul", seat: seat.seat });
    if (mode === "disqualify") { mode = "fouls"; return send({ kind: "disqualify", seat: seat.seat }); }
    if (mode === "roles") {
      roles = roles || view.seats.map((s) => s.role);
      roles[seat.seat - 1] = roles[seat.seat - 1] === roleTool ? null : roleTool;
      const left = { don: 1, sheriff: 1, mafia: 2 };
      for (const r of roles) if (r && left[r] !== undefined) left[r] -= 1;
      if (left[roleTool] <= 0) roleTool = ["don", "sheriff", "mafia"].find((r) => left[r] > 0) || "civilian";
      return render();
    }
    switch (view.phase) {
      case "speeches":
        return send({ kind: "nominate", by: view.speaker, target: seat.seat });
      case "shot":
        return send({ kind: "shot", target: seat.seat });
      case "don_check":
      case "sheriff_check":
        return send({ kind: "check", seat: seat.seat });
      case "best_move":
        if (picked.includes(seat.seat)) picked = picked.filter((s) => s !== seat.seat);
        else if (picked.length < 3) picked.push(seat.seat);
        return render();
      case "finished":
        extraSeat = extraSeat === seat.seat ? null : seat.seat;
        return render();
      default:
        return undefined;
    }
  }

  function next(text) {
    return button(text || T("next"), () => send({ kind: "next" }), { id: "next", primary: true });
  }

  function renderRoles(box) {
    box.append(hint(T("roles-hint")));
    const tools = ["don", "sheriff", "mafia", "civilian"].map((role) =>
      button(T(`role-${role}`), () => { roleTool = role; render(); }, { id: `role-${role}`, active: roleTool === role }));
    box.append(row(...tools));
    box.append(row(
      button(T("roles-rest"), () => {
        roles = (roles || view.seats.map((s) => s.role)).map((r) => r || "civilian");
        render();
      }, { id: "roles-rest" }),
      button(T("roles-done"), () => {
        const dealt = roles || view.seats.map((s) => s.role);
        roles = null;
        mode = "play";
        send({ kind: "roles", roles: dealt });
      }, { id: "roles-done", primary: true }),
    ));
  }

  function renderVotes(box) {
    box.append(hint(T("votes-hint", { voters: view.voters })));
    const candidates = view.candidates;
    if (votes.length !== candidates.length) votes = candidates.map(() => 0);
    const given = votes.slice(0, -1).reduce((a, b) => a + b, 0);
    votes[votes.length - 1] = Math.max(0, view.voters - given);
    candidates.forEach((seat, index) => {
      const line = document.createElement("div");
      line.className = "stepper";
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = `${seat}. ${view.seats[seat - 1].nickname}`;
      const count = document.createElement("span");
      count.className = "count";
      count.id = `votes-${seat}`;
      count.textContent = String(votes[index]);
      line.append(label);
      if (index < candidates.length - 1) {
        line.append(
          button("−", () => { votes[index] = Math.max(0, votes[index] - 1); render(); }, { id: `less-${seat}` }),
          count,
          button("+", () => { if (given < view.voters) { votes[index] += 1; render(); } }, { id: `more-${seat}` }),
        );
      } else {
        line.append(count);
      }
      box.append(line);
    });
    box.append(button(T("votes-submit"), () => send({ kind: "votes", counts: votes.slice() }), { id: "votes-submit", primary: true }));
  }

  function renderAllOrNobody(box) {
    if (votes.length !== 1) votes = [0];
    const line = document.createElement("div");
    line.className = "stepper";
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = `${T("all-votes")} ${view.candidates.join(", ")}`;
    const count = document.createElement("span");
    count.className = "count";
    count.id = "votes-all";
    count.textContent = String(votes[0]);
    line.append(
      label,
      button("−", () => { votes[0] = Math.max(0, votes[0] - 1); render(); }, { id: "less-all" }),
      count,
      button("+", () => { votes[0] = Math.min(view.voters, votes[0] + 1); render(); }, { id: "more-all" }),
    );
    box.append(line, button(T("votes-submit"), () => send({ kind: "all_or_nobody", votes: votes[0] }), { id: "votes-submit", primary: true }));
  }

  function renderOtherwise(box) {
    const winner = document.createElement("select");
    winner.id = "otherwise-winner";
    for (const side of ["red", "black"]) winner.append(new Option(T(`end-winner-${side}`), side));
    const end = document.createElement("select");
    end.id = "otherwise-end";
    end.append(new Option(T("end-judge"), ""));
    for (const choice of view.ends) end.append(new Option(choice.text, choice.end));
    const comment = document.createElement("textarea");
    comment.id = "otherwise-comment";
    comment.placeholder = T("end-comment");
    box.append(winner, end, comment, button(T("end-other"), () => send({
      kind: "finish", winner: winner.value, end: end.value || null, comment: comment.value,
    }), { id: "otherwise-submit", primary: true }));
  }

  function renderControls() {
    const box = $("controls");
    box.replaceChildren();
    if (view.confirmed) { box.append(hint(T("confirmed"))); return; }
    if (mode === "roles") return renderRoles(box);
    if (mode === "fouls" || mode === "disqualify") {
      box.append(hint(T("fouls-mode")));
      box.append(row(button(T("disqualify"), () => { mode = mode === "disqualify" ? "fouls" : "disqualify"; render(); }, { id: "disqualify", active: mode === "disqualify" })));
      return;
    }
    switch (view.phase) {
      case "introduction":
      case "split_speeches":
      case "last_words":
      case "morning_last_word":
        box.append(next());
        break;
      case "speeches": {
        const nominees = view.nominations.map((n) => n.target).join(", ");
        if (nominees) box.append(hint(T("nominees", { seats: nominees })));
        if (view.no_vote) box.append(hint(T("no-vote")));
        box.append(hint(T("nominate-hint", { seat: view.speaker })));
        const controls = [next()];
        if (view.withdraw_nomination && view.nominations.some((n) => n.by === view.speaker)) {
          controls.unshift(button(T("withdraw"), () => send({ kind: "withdraw", by: view.speaker }), { id: "withdraw" }));
        }
        box.append(row(...controls));
        break;
      }
      case "voting":
      case "revote":
        renderVotes(box);
        break;
      case "all_or_nobody":
        renderAllOrNobody(box);
        break;
      case "shot":
        box.append(hint(T("shoot-hint")), button(T("miss"), () => send({ kind: "shot", target: null }), { id: "miss", primary: true }));
        break;
      case "don_check":
      case "sheriff_check":
        box.append(hint(T("check-hint")), button(T("check-skip"), () => send({ kind: "next" }), { id: "check-skip" }));
        break;
      case "best_move":
        box.append(hint(T("best-move-hint")), row(
          button(T("best-move-none"), () => send({ kind: "next" }), { id: "best-move-none" }),
          button(T("best-move-done"), () => send({ kind: "best_move", seats: picked.slice() }), { id: "best-move-done", primary: true, disabled: picked.length === 0 }),
        ));
        break;
      case "end_detected":
        if (view.detected) {
          box.append(hint(view.detected.text), button(T("end-confirm"), () => send({
            kind: "finish", winner: view.detected.winner, end: view.detected.end, comment: "",
          }), { id: "end-confirm", primary: true }));
        }
        break;
      case "finished":
        renderExtra(box);
        return;
      default:
        break;
    }
    if (view.phase !== "finished") {
      if (otherwise) renderOtherwise(box);
      else box.append(button(T("end-other"), () => { otherwise = true; render(); }, { id: "end-other" }));
    }
  }

  function renderExtra(box) {
    box.append(hint(T("extra-hint")));
    if (extraSeat !== null) {
      const current = view.seats[extraSeat - 1].extra;
      const comment = document.createElement("textarea");
      comment.id = "extra-comment";
      comment.placeholder = T("extra-comment");
      box.append(row(...view.extra_values.map((value) => button(value, () => {
        const seat = extraSeat;
        extraSeat = null;
        send({ kind: "extra", seat, points: value, comment: comment.value });
      }, { id: `extra-${value}`, active: value === current }))), comment);
    }
  }

  function renderSummary() {
    const box = $("summary");
    box.replaceChildren();
    if (view.phase !== "finished" && !view.confirmed) return;
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
      box.append(hint(T("missing")));
      for (const item of view.missing) box.append(hint(`• ${item}`));
    }
    if (!view.confirmed) {
      box.append(button(T("confirm"), confirmProtocol, { id: "confirm", primary: true, disabled: !view.ready }));
    }
  }

  function renderLog() {
    const list = $("log");
    list.replaceChildren();
    for (const entry of view.log) {
      const item = document.createElement("li");
      const fields = Object.entries(entry).filter(([k]) => !["kind", "at", "judge"].includes(k)).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
      item.textContent = `${entry.at.slice(11, 19)} ${entry.kind} ${fields.join(" ")}`;
      list.append(item);
    }
  }

  $("mode-play").addEventListener("click", () => { mode = "play"; roles = null; render(); });
  $("mode-fouls").addEventListener("click", () => { mode = mode === "fouls" ? "play" : "fouls"; render(); });
  $("mode-roles").addEventListener("click", () => { mode = mode === "roles" ? "play" : "roles"; roles = null; render(); });
  $("undo").addEventListener("click", undo);
  $("timer-toggle").addEventListener("click", toggleTimer);
  $("timer-reset").addEventListener("click", resetTimer);
  load();
})();
