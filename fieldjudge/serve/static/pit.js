// The pit display page: renders /api/live and /api/standings pushed over server-sent
// events (/events: the whole live document first, then "game" events with one changed game
// each), polls them only when the stream fails, and says when the connection is lost.
// Running clocks count down here, from the remaining time each game last came with.
// Every name from the data goes in with textContent (never innerHTML).
"use strict";
(function () {
  const S = JSON.parse(document.getElementById("strings").textContent);
  const LOST_AFTER_MS = 12000; // the server pings every 5 s
  const POLL_MS = 2000;
  const NEXT_GAMES = 6; // the schedule's next games the TV always shows
  let live = null;
  const clockAt = {}; // game id -> {remaining, running, at}: as that game last arrived
  let clocks = []; // [{node, game}] shown now
  let lastUpdate = null; // Date of the last message from the server
  let lastSeen = 0; // performance.now() of it
  let source = null;
  let pollTimer = null;
  let lost = false;

  function tr(key, vars) {
    let s = S[key] !== undefined ? S[key] : key;
    for (const k in vars || {}) s = s.split("{" + k + "}").join(String(vars[k]));
    return s;
  }
  function el(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  function two(n) { return String(n).padStart(2, "0"); }
  function hhmmss(d) { return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds()); }
  function mss(s) { return Math.floor(s / 60) + ":" + two(s % 60); }
  // the countdown: time left rounded up to a second (rules.timefmt.format_time_left)
  function fmtClock(ms) { return mss(Math.max(0, Math.ceil(ms / 1000))); }
  // an event's game time: seconds floored, as the app and the protocol show it
  // (rules.timefmt.format_game_clock)
  function fmtElapsed(ms) { return mss(Math.max(0, Math.floor(ms / 1000))); }
  function hhmm(iso) {
    const m = /T(\d\d:\d\d)/.exec(iso || "");
    return m ? m[1] : iso || "";
  }
  function teamName(game, id) {
    for (const t of game.teams) if (t.id === id) return t.name;
    return id || "";
  }
  function player(game, p) {
    let s = "#" + p.number;
    if (p.name) s += " " + p.name;
    return s + " (" + teamName(game, p.team) + ")";
  }
  function signed(n) { return n > 0 ? "+" + n : String(n); }

  // -- connection state ------------------------------------------------------------------
  function seen() {
    lastUpdate = new Date();
    lastSeen = performance.now();
    if (lost) {
      lost = false;
      document.getElementById("lost").hidden = true;
    }
    document.getElementById("status").textContent = tr("updated", { time: hhmmss(lastUpdate) });
  }
  function showLost() {
    lost = true;
    const banner = document.getElementById("lost");
    banner.textContent = tr("lost", { time: lastUpdate ? hhmmss(lastUpdate) : "—" });
    banner.hidden = false;
  }
  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    source = new EventSource("/events");
    source.addEventListener("live", function (e) { renderLive(JSON.parse(e.data)); seen(); stopPolling(); });
    source.addEventListener("game", function (e) { applyGame(JSON.parse(e.data)); seen(); stopPolling(); });
    source.addEventListener("standings", function (e) { renderStandings(JSON.parse(e.data)); seen(); });
    source.addEventListener("ping", seen);
    source.onerror = function () {
      showLost();
      startPolling(); // fallback while the stream is down; stops when it delivers again
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(connect, POLL_MS);
      }
    };
  }
  function startPolling() {
    if (pollTimer === null) pollTimer = setInterval(poll, POLL_MS);
  }
  function stopPolling() {
    if (pollTimer !== null) { clearInterval(pollTimer); pollTimer = null; }
  }
  async function poll() {
    try {
      const [l, s] = await Promise.all([fetch("/api/live", { cache: "no-store" }), fetch("/api/standings", { cache: "no-store" })]);
      if (!l.ok || !s.ok) throw new Error("HTTP " + l.status + "/" + s.status);
      renderLive(await l.json());
      renderStandings(await s.json());
      seen();
    } catch (err) {
      showLost();
    }
  }
  setInterval(function () {
    if (lastSeen && performance.now() - lastSeen > LOST_AFTER_MS && !lost) {
      showLost();
      if (source) { source.close(); source = null; setTimeout(connect, 0); }
      startPolling();
    }
  }, 1000);

  // -- live games -----------------------------------------------------------------------
  function stateText(g) {
    if (g.damaged) return tr(g.unregistered ? "st_unregistered" : "st_damaged");
    if (g.no_show && g.no_show.length) return tr("st_no_show");
    return tr("st_" + g.state);
  }
  function words(texts, fallback) {
    // a text the server sends in each language of the page (services/pitwords.py)
    if (!texts) return fallback || "";
    return texts[S.lang] || texts.en || fallback || "";
  }
  function flagText(game, f) {
    let s = tr("flag_of", { team: teamName(game, f.owner) }) + ": ";
    if ((f.state === "carried" || f.state === "hang_check") && f.carrier) {
      s += tr("carried_by", { player: player(game, f.carrier) });
      if (f.state === "hang_check") s += " — " + tr("fl_hang_check");
    } else if (f.state === "hung") {
      s += tr("fl_hung") + (f.carrier ? " — " + player(game, f.carrier) : "");
    } else if (f.state === "at_base" && f.spare) {
      s += tr("fl_spare");
    } else {
      s += tr("fl_" + f.state);
    }
    return s;
  }
  function card(g) {
    const c = el("article", "card " + g.state + (g.damaged ? " damaged-card" : "") + (g.conflict ? " conflict-card" : ""));
    c.dataset.game = g.id;
    const head = el("div", "card-head");
    const field = el("span", "field", tr("field") + "\u00a0" + g.field);
    field.dataset.role = "field";
    const state = el("span", "state " + (g.damaged ? "damaged" : g.state), stateText(g));
    state.dataset.role = "state";
    head.append(field, state);
    const clock = el("span", "clock");
    clock.dataset.role = "clock";
    if (g.clock && !g.damaged && clockAt[g.id]) clocks.push({ node: clock, game: g.id, state: g.state === "running" ? state : null });
    head.append(clock);
    c.append(head);
    if (g.conflict) {
      const mark = el("div", "conflict", words(g.conflict.text));
      mark.dataset.role = "conflict";
      c.append(mark);
    }
    // "Time!" said once: the state says it already while the clock is stopped
    if (g.time_called && stateText(g) !== tr("time_called")) c.append(el("div", "timecall", tr("time_called")));
    const teams = el("div", "teams");
    g.teams.forEach(function (t, i) {
      const box = el("div", "team");
      box.dataset.team = t.id;
      const alive = el("div", "alive", t.alive === null || t.alive === undefined ? "—" : t.alive);
      alive.dataset.role = "alive";
      box.append(el("div", "name", t.name), alive, el("div", "alive-label", tr("in_play")));
      teams.append(box);
      if (i === 0) {
        const vs = el("div", "vs");
        vs.append(el("div", "vs-dash", "—"), el("div", "vs-label", tr("in_play")));
        teams.append(vs);
      }
    });
    c.append(teams);
    if (g.damaged) c.append(el("div", "damaged", tr(g.unregistered ? "unregistered" : "damaged") + ": " + (g.damaged_text ? g.damaged_text[S.lang] || g.damaged : g.damaged)));
    const flags = el("ul", "flags");
    for (const f of g.flags || []) flags.append(el("li", f.state + (f.spare ? " spare" : ""), flagText(g, f)));
    c.append(flags);
    const events = el("ol", "events");
    for (const e of g.last_events || []) {
      const li = el("li");
      // an event before the start (a check-in, a marker check) has no game time: "—", as on the laptop
      li.append(el("span", "t", e.clock_ms === null || e.clock_ms === undefined ? "—" : fmtElapsed(e.clock_ms)), document.createTextNode(words(e.text)));
      events.append(li);
    }
    c.append(events);
    return c;
  }
  function noteClocks(games) {
    const now = performance.now();
    for (const g of games) {
      if (g.clock) clockAt[g.id] = { remaining: g.clock.remaining_ms, running: g.clock.running, at: now };
      else delete clockAt[g.id];
    }
  }
  function applyGame(msg) {
    // One game changed: replace it in the document the page holds, render again.
    if (!live || !msg.game) return;
    const games = live.games || [];
    const i = games.findIndex(function (g) { return g.id === msg.game.id; });
    if (i < 0) return; // not in the schedule the page has: the server sends "live" for that
    games[i] = msg.game;
    live.as_of = msg.as_of;
    live.live = msg.live || [];
    noteClocks([msg.game]);
    draw(live);
  }
  function renderLive(data) {
    noteClocks(data.games || []);
    draw(data);
  }
  function draw(data) {
    live = data;
    document.getElementById("title").textContent = (data.tournament ? data.tournament.name : "") + (data.damaged ? " — " + tr("damaged") + ": " + (data.damaged_text ? data.damaged_text[S.lang] || data.damaged : data.damaged) : "");
    document.title = tr("title") + (data.tournament && data.tournament.name ? " — " + data.tournament.name : "");
    clocks = [];
    const box = document.getElementById("live");
    const games = (data.games || []).filter(function (g) { return g.damaged || (data.live || []).indexOf(g.id) >= 0; });
    if (!games.length) {
      box.replaceChildren(el("p", "empty", tr("no_live")));
    } else {
      const cards = el("div", "cards n" + Math.min(games.length, 5));
      for (const g of games) cards.append(card(g));
      box.replaceChildren(cards);
    }
    tick();
    renderSchedule(data);
    fit();
  }
  function fit() {
    // A card of a fixed height (the TV's screen) drops its oldest events that do not fit,
    // whole ones only; a card that grows with its content (a phone) keeps them all.
    for (const list of document.querySelectorAll("#live .card .events")) {
      const items = Array.from(list.children);
      for (const li of items) li.hidden = false;
      const bottom = list.getBoundingClientRect().bottom + 0.5;
      let full = false;
      for (const li of items) {
        full = full || li.getBoundingClientRect().bottom > bottom;
        li.hidden = full;
      }
    }
  }
  function fitStandings() {
    // On the TV the standings have the screen's height left: a long table is set smaller
    // (down to 60 %) rather than cut; on a phone the section grows and nothing shrinks.
    const section = document.getElementById("standings-section");
    const box = document.getElementById("standings");
    let scale = 100;
    box.style.fontSize = "";
    while (section.scrollHeight > section.clientHeight + 1 && scale > 60) {
      scale -= 5;
      box.style.fontSize = scale + "%";
    }
  }
  window.addEventListener("resize", function () { fit(); fitStandings(); });
  function renderSchedule(data) {
    const table = document.getElementById("schedule");
    const head = table.tHead.rows[0];
    head.replaceChildren(el("th", "time-col", tr("col_time")), el("th", "field-col", tr("field")), el("th", "", tr("col_game")), el("th", "state-col", tr("col_state")));
    const rows = [];
    let next = 0;
    for (const g of data.games || []) {
      let kind = "done";
      if ((data.live || []).indexOf(g.id) >= 0) kind = "live";
      else if (g.state === "scheduled" && !g.damaged) kind = next++ < NEXT_GAMES ? "next" : "later";
      const tr_ = el("tr", kind);
      tr_.dataset.game = g.id;
      const names = g.teams.map(function (t) { return t.name; }).join(" — ");
      let state = stateText(g);
      if (!g.damaged) { // a damaged file: its state alone, not the last good view's score
        if (g.result) state += " " + g.teams.map(function (t) { return g.result.points[t.id]; }).join(" : ");
        else if (g.teams[0].alive !== null && g.teams[0].alive !== undefined) state += " " + g.teams.map(function (t) { return t.alive; }).join(" : ");
        if (g.provisional) state += " *";
      }
      tr_.append(el("td", "time-col", hhmm(g.start)), el("td", "field-col", g.field), el("td", "teams-cell", names), el("td", "state state-col " + (g.damaged ? "damaged" : g.state), state));
      rows.push(tr_);
    }
    table.tBodies[0].replaceChildren.apply(table.tBodies[0], rows);
    const none = document.getElementById("no-next");
    none.textContent = tr("no_next");
    none.hidden = next > 0;
  }
  function tick() {
    const now = performance.now();
    for (const c of clocks) {
      const k = clockAt[c.game];
      if (!k) continue;
      const left = k.running ? k.remaining - (now - k.at) : k.remaining;
      c.node.textContent = fmtClock(left);
      // 0:00 on a running clock and no end from the field laptop yet: not "Game on"
      if (c.state && k.running && left <= 0) c.state.textContent = tr("st_time_up");
    }
  }
  setInterval(tick, 250);

  // -- standings ------------------------------------------------------------------------
  function renderStandings(data) {
    const box = document.getElementById("standings");
    const parts = [];
    let anyProvisional = false;
    const divisions = data.divisions || [];
    for (const d of divisions) {
      if (divisions.length > 1 || d.division) parts.push(el("h3", "division", d.division));
      const table = el("table", "standings");
      table.dataset.division = d.division;
      const hr = el("tr");
      hr.append(el("th", "num", tr("col_rank")), el("th", "", tr("col_team")), el("th", "num", tr("col_games")), el("th", "num", tr("col_points")), el("th", "num", tr("col_diff")), el("th", "num hangs", tr("col_hangs")), el("th", "num wdl", tr("col_wdl")));
      const thead = el("thead");
      thead.append(hr);
      const tbody = el("tbody");
      for (const r of d.rows) {
        const row = el("tr");
        row.dataset.team = r.team;
        const name = el("td", "name", r.name);
        if (r.provisional_games > 0) { name.append(el("span", "prov", " *")); anyProvisional = true; }
        if (r.tie_break && r.tie_break[S.lang]) name.title = r.tie_break[S.lang];
        const pts = el("td", "num points", r.points);
        pts.dataset.role = "points";
        row.append(el("td", "num", r.rank), name, el("td", "num", r.games), pts, el("td", "num", signed(r.diff)), el("td", "num hangs", r.flag_hangs), el("td", "num wdl", r.wins + "-" + r.draws + "-" + r.losses));
        tbody.append(row);
      }
      table.append(thead, tbody);
      parts.push(table);
    }
    box.replaceChildren.apply(box, parts);
    const note = document.getElementById("provisional-note");
    note.textContent = tr("provisional_note");
    note.hidden = !anyProvisional;
    fitStandings();
  }

  document.getElementById("h-live").textContent = tr("live");
  document.getElementById("h-standings").textContent = tr("standings");
  document.getElementById("h-schedule").textContent = tr("schedule");
  document.getElementById("h-next").textContent = tr("next_games");
  document.getElementById("status").textContent = tr("connecting");
  connect();
})();
