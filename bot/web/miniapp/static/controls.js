// The controls under the seats: what the judge's next tap can be in the game's phase. Each
// function draws into `box` from `ui` (app.js: the view, the page's own choices, `send`).
"use strict";

(function (root) {
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

  function label(text) {
    const element = document.createElement("div");
    element.className = "label";
    element.textContent = text;
    return element;
  }

  function next(ui, text) {
    return button(text || ui.T("next"), () => ui.send({ kind: "next" }), { id: "next", primary: true });
  }

  function roles(ui, box) {
    box.append(hint(ui.T("roles-hint")));
    const tools = ["don", "sheriff", "mafia", "civilian"].map((role) =>
      button(ui.T(`role-${role}`), () => { ui.roleTool = role; ui.render(); }, { id: `role-${role}`, active: ui.roleTool === role }));
    box.append(row(...tools));
    box.append(row(
      button(ui.T("roles-rest"), () => {
        ui.roles = (ui.roles || ui.view.seats.map((s) => s.role)).map((r) => r || "civilian");
        ui.render();
      }, { id: "roles-rest" }),
      button(ui.T("roles-done"), () => ui.dealRoles(), { id: "roles-done", primary: true }),
    ));
  }

  // A vote: for each candidate but the last, one tap on the number of votes (the rest go to
  // the last one, 3.9); the tap on the last row's number ends the vote.
  function votes(ui, box) {
    const view = ui.view;
    if (view.rules.record_ballots) return ballots(ui, box);
    box.append(hint(ui.T("votes-hint", { voters: view.voters })));
    const candidates = view.candidates;
    if (ui.votes.length !== candidates.length) ui.votes = candidates.map(() => 0);
    const counts = ui.votes;
    const rest = () => view.voters - counts.slice(0, -1).reduce((a, b) => a + b, 0);
    candidates.slice(0, -1).forEach((seat, index) => {
      const given = counts.slice(0, index).reduce((a, b) => a + b, 0);
      const numbers = [];
      for (let count = 0; count <= view.voters - given; count += 1) {
        numbers.push(button(String(count), () => {
          counts[index] = count;
          for (let later = index + 1; later < counts.length - 1; later += 1) counts[later] = 0;
          if (index === candidates.length - 2) submitVotes(ui, rest());
          else ui.render();
        }, { id: `vote-${seat}-${count}`, active: counts[index] === count }));
      }
      box.append(label(`${seat}. ${view.seats[seat - 1].nickname}`), row(...numbers));
    });
    const last = candidates[candidates.length - 1];
    const left = Math.max(0, rest());
    const count = document.createElement("span");
    count.className = "count";
    count.id = `votes-${last}`;
    count.textContent = String(left);
    const line = row(label(`${last}. ${view.seats[last - 1].nickname}`), count);
    line.classList.add("stepper");
    box.append(line, button(ui.T("votes-submit"), () => submitVotes(ui, left), { id: "votes-submit", primary: true }));
  }

  function submitVotes(ui, left) {
    const counts = ui.votes.slice();
    counts[counts.length - 1] = left;
    if (left < 0) return ui.render();
    ui.send({ kind: "votes", counts });
  }

  // Who voted for whom (the regulation's record_ballots): for each candidate but the last,
  // the judge marks the voters' seats; the players not marked vote for the last one.
  function ballots(ui, box) {
    const view = ui.view;
    const candidates = view.candidates;
    const step = Math.min(ui.ballotStep, candidates.length - 1);
    const target = candidates[step];
    box.append(hint(ui.T("ballots-hint", { seat: target })));
    const lastStep = step >= candidates.length - 2 || candidates.length === 1;
    box.append(button(lastStep ? ui.T("votes-submit") : ui.T("ballots-next"), () => {
      if (!lastStep) { ui.ballotStep = step + 1; return ui.render(); }
      const players = view.seats.filter((s) => !s.out).map((s) => s.seat);
      const cast = players.map((voter) => ({ voter, target: ui.ballots[voter] || candidates[candidates.length - 1] }));
      const counts = candidates.map((seat) => cast.filter((b) => b.target === seat).length);
      ui.send({ kind: "votes", counts, ballots: cast });
    }, { id: lastStep ? "votes-submit" : "ballots-next", primary: true }));
  }

  function allOrNobody(ui, box) {
    const view = ui.view;
    box.append(label(`${ui.T("all-votes")} ${view.candidates.join(", ")}`));
    const numbers = [];
    for (let count = 0; count <= view.voters; count += 1) {
      numbers.push(button(String(count), () => ui.send({ kind: "all_or_nobody", votes: count }), { id: `all-${count}` }));
    }
    box.append(row(...numbers));
  }

  function otherwise(ui, box) {
    const winner = document.createElement("select");
    winner.id = "otherwise-winner";
    for (const side of ["red", "black"]) winner.append(new Option(ui.T(`end-winner-${side}`), side));
    const end = document.createElement("select");
    end.id = "otherwise-end";
    end.append(new Option(ui.T("end-judge"), ""));
    for (const choice of ui.view.ends) end.append(new Option(choice.text, choice.end));
    const comment = document.createElement("textarea");
    comment.id = "otherwise-comment";
    comment.placeholder = ui.T("end-comment");
    box.append(winner, end, comment, button(ui.T("end-other"), () => ui.send({
      kind: "finish", winner: winner.value, end: end.value || null, comment: comment.value.slice(0, 500),
    }), { id: "otherwise-submit", primary: true }));
  }

  function speeches(ui, box) {
    const view = ui.view;
    const nominees = view.nominations.map((n) => n.target).join(", ");
    if (nominees) box.append(hint(ui.T("nominees", { seats: nominees })));
    if (view.no_vote) box.append(hint(ui.T("no-vote")));
    box.append(hint(ui.T("nominate-hint", { seat: view.speaker })));
    const controls = [next(ui)];
    if (view.withdraw_nomination && view.nominations.some((n) => n.by === view.speaker)) {
      controls.unshift(button(ui.T("withdraw"), () => ui.send({ kind: "withdraw", by: view.speaker }), { id: "withdraw" }));
    }
    box.append(row(...controls));
  }

  function extra(ui, box) {
    box.append(hint(ui.T("extra-hint")));
    if (ui.extraSeat === null) return;
    const current = ui.view.seats[ui.extraSeat - 1].extra;
    const comment = document.createElement("textarea");
    comment.id = "extra-comment";
    comment.placeholder = ui.T("extra-comment");
    box.append(row(...ui.view.extra_values.map((value) => button(value, () => {
      const seat = ui.extraSeat;
      ui.extraSeat = null;
      ui.send({ kind: "extra", seat, points: value, comment: comment.value.trim().slice(0, 500) });
    }, { id: `extra-${value}`, active: value === current }))), comment);
  }

  function fouls(ui, box) {
    box.append(hint(ui.T(ui.mode === "technical" ? "technical-mode" : "fouls-mode")));
    const toggle = (name) => () => { ui.mode = ui.mode === name ? "fouls" : name; ui.render(); };
    box.append(row(
      button(ui.T("technical"), toggle("technical"), { id: "technical", active: ui.mode === "technical" }),
      button(ui.T("disqualify"), toggle("disqualify"), { id: "disqualify", active: ui.mode === "disqualify" }),
    ));
  }

  function phase(ui, box) {
    const view = ui.view;
    switch (view.phase) {
      case "introduction":
      case "split_speeches":
      case "last_words":
      case "morning_last_word":
        return box.append(next(ui));
      case "speeches": return speeches(ui, box);
      case "voting":
      case "revote": return votes(ui, box);
      case "all_or_nobody": return allOrNobody(ui, box);
      case "shot":
        return box.append(hint(ui.T("shoot-hint")), button(ui.T("miss"), () => ui.send({ kind: "shot", target: null }), { id: "miss", primary: true }));
      case "don_check":
      case "sheriff_check":
        return box.append(hint(ui.T("check-hint")), button(ui.T("check-skip"), () => ui.send({ kind: "next" }), { id: "check-skip" }));
      case "best_move":
        return box.append(hint(ui.T("best-move-hint")), row(
          button(ui.T("best-move-none"), () => ui.send({ kind: "next" }), { id: "best-move-none" }),
          button(ui.T("best-move-done"), () => ui.send({ kind: "best_move", seats: ui.picked.slice() }), { id: "best-move-done", primary: true, disabled: ui.picked.length === 0 }),
        ));
      case "end_detected":
        if (!view.detected) return undefined;
        return box.append(hint(view.detected.text), button(ui.T("end-confirm"), () => ui.send({
          kind: "finish", winner: view.detected.winner, end: view.detected.end, comment: "",
        }), { id: "end-confirm", primary: true }));
      default:
        return undefined;
    }
  }

  function render(ui, box) {
    box.replaceChildren();
    const view = ui.view;
    if (view.confirmed) return box.append(hint(ui.T("confirmed")));
    if (ui.mode === "roles") return roles(ui, box);
    if (["fouls", "technical", "disqualify"].includes(ui.mode)) return fouls(ui, box);
    if (view.phase === "finished") return extra(ui, box);
    phase(ui, box);
    if (ui.otherwise) otherwise(ui, box);
    else box.append(button(ui.T("end-other"), () => { ui.otherwise = true; ui.render(); }, { id: "end-other" }));
    return undefined;
  }

  root.MafiaControls = { render, button, hint };
})(window);
