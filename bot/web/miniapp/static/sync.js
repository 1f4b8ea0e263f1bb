// The judge's taps, kept on the phone and sent to the server in order, exactly once.
//
// Each tap is applied at once with the page's copy of the rules (rules.js) and queued in the
// page's storage (localStorage) with the server's version it expects and the length of the log
// it makes. The queue is sent one tap at a time as soon as the connection allows; the server
// applies a tap only on the version it expects (409 otherwise). A tap whose answer was lost
// (the connection dropped, the app was closed) is sent again after a reload: the server then
// answers 409, and the tap counts as saved when the server's log is the one it makes (one
// version on, the same length, the same last action). Any other 409 is another device's
// change, and a refusal (422, or a 4xx) is the server's rules: the queue stops, the screen says
// so, and the judge drops his unsaved taps to see the server's game; nothing is overwritten.
"use strict";

(function (root) {
  const Rules = root.MafiaRules;
  const RETRY_MS = 3000;
  const POLL_MS = 5000;

  function actionOf(entry) {
    const action = Object.assign({}, entry);
    delete action.at;
    delete action.judge;
    return action;
  }

  const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
  function sorted(value) {
    if (Array.isArray(value)) return value.map(sorted);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])]));
    }
    return value;
  }

  function create(options) {
    const key = `mafiatour.live-game.${options.gameId}`;
    let stored = read();
    let flushing = false;
    let online = true;
    let retry = null;
    let blocked = null;

    function read() {
      try {
        const data = JSON.parse(root.localStorage.getItem(key) || "null");
        if (data && Array.isArray(data.queue)) return data;
      } catch (error) { /* unreadable: start afresh */ }
      return { server: null, queue: [], conflict: null };
    }

    function save() {
      try { root.localStorage.setItem(key, JSON.stringify(stored)); } catch (error) { /* full: kept in memory */ }
    }

    // The log the server's game and the queue make, as actions.
    function actions() {
      const list = stored.server ? stored.server.log.map(actionOf) : [];
      for (const item of stored.queue) {
        if (item.op === "undo") list.pop();
        else list.push(item.action);
      }
      return list;
    }

    // The log's entries: the server's, then the queued taps (marked pending).
    function entries() {
      const list = stored.server ? stored.server.log.slice() : [];
      for (const item of stored.queue) {
        if (item.op === "undo") list.pop();
        else list.push(Object.assign({}, item.action, { at: item.at, pending: true }));
      }
      return list;
    }

    function local() {
      if (!stored.server) return null;
      try {
        return Rules.replay(stored.conflict ? stored.server.log.map(actionOf) : actions(), stored.server.rules);
      } catch (error) {
        return Rules.replay(stored.server.log.map(actionOf), stored.server.rules);
      }
    }

    function enqueue(op, action) {
      const version = stored.server.version + stored.queue.length;
      const length = actions().length + (op === "undo" ? -1 : 1);
      stored.queue.push({ op, action: action || null, version, length, at: new Date().toISOString() });
      save();
      options.onChange();
      flush();
    }

    // A tap: refused at once (a Rules.Refused) if the rules do not allow it now.
    function tap(action) {
      if (stored.conflict) throw new Rules.Refused("conflict");
      Rules.apply(local(), action, stored.server.rules);
      enqueue("action", action);
    }

    function undo() {
      if (stored.conflict) return;
      const last = stored.queue[stored.queue.length - 1];
      if (last && last.op === "action" && !(flushing && stored.queue.length === 1)) {
        stored.queue.pop(); // never sent: taken back on the phone
        save();
        options.onChange();
        return;
      }
      if (actions().length) enqueue("undo");
    }

    function accept(data) {
      // The server's versions only grow: an answer older than the game held (a read that
      // crossed a saved tap) is dropped, else the next tap would expect a stale version.
      if (stored.server && data.version < stored.server.version) return;
      stored.server = data;
      save();
    }

    function matches(data, item) {
      if (data.version !== item.version + 1 || data.log.length !== item.length) return false;
      return item.op === "undo" || same(actionOf(data.log[data.log.length - 1]), item.action);
    }

    function stop(reason, data) {
      if (data) stored.server = data;
      stored.conflict = { reason: reason || null, count: stored.queue.length };
      save();
    }

    async function send(item) {
      if (item.op === "undo") return options.call("POST", "/undo", { version: item.version });
      return options.call("POST", "/actions", { version: item.version, action: item.action, at: item.at });
    }

    async function flush() {
      if (flushing || stored.conflict || !stored.server) return;
      flushing = true;
      try {
        while (stored.queue.length && !stored.conflict) {
          const item = stored.queue[0];
          let data;
          try {
            data = await send(item);
          } catch (error) {
            // The launch data expired (Telegram signs it for a day): the taps wait for the app
            // opened again from Telegram, which sends them with fresh data.
            if (error.status === 401) { blocked = error.shown; break; }
            if (error.shown) { stop(error.shown, null); break; }
            online = false; // no answer: the tap stays queued, tried again
            schedule();
            break;
          }
          online = true;
          if (data.stale && !matches(data, item)) { stop(null, data); break; }
          if (data.refused || data.notice) { stop(data.refused || data.notice, data); break; }
          stored.queue.shift();
          accept(data);
        }
      } finally {
        flushing = false;
        options.onChange();
      }
    }

    function schedule() {
      clearTimeout(retry);
      retry = setTimeout(flush, RETRY_MS);
    }

    // The server's game: at the start, now and then (another device's taps), when back online.
    async function refresh() {
      if (flushing) return;
      try {
        const data = await options.call("GET", "");
        online = true;
        if (!stored.queue.length || !stored.server) {
          stored.conflict = null;
          accept(data);
        }
        options.onChange();
        flush();
      } catch (error) {
        online = false;
        if (error.shown || !stored.server) throw error;
        options.onChange();
        schedule();
      }
    }

    function discard() {
      stored.queue = [];
      stored.conflict = null;
      save();
      options.onChange();
      refresh().catch(() => undefined);
    }

    root.addEventListener("online", () => { online = true; flush(); });
    setInterval(() => { if (!stored.queue.length) refresh().catch(() => undefined); }, POLL_MS);

    return {
      tap, undo, refresh, discard, flush, local, actions, entries,
      get server() { return stored.server; },
      get pending() { return stored.queue.length; },
      get conflict() { return stored.conflict; },
      get online() { return online; },
      get blocked() { return blocked; },
    };
  }

  root.MafiaSync = { create, actionOf };
})(window);
