// The live board's page: signs in through Discord's Embedded App SDK, then draws what
// the server sends (bot/live/view.py) and sends one message per tap. Nothing here is
// trusted by the server: it checks every message as it checks a button press.
import { DiscordSDK } from "../sdk/index.mjs";

const SVG = "http://www.w3.org/2000/svg";
const PLACE = "place";
const $ = (id) => document.getElementById(id);
const page = { texts: {}, board: null, state: null, selected: null, ws: null, you: "" };

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function say(id, text) { $(id).textContent = text || ""; }
const t = (key) => page.texts[key] || "";

// ------------------------------------------------------------ signing in

async function signIn() {
  const config = await (await fetch("api/config")).json();
  const sdk = new DiscordSDK(config.client_id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id, response_type: "code", state: "", prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("api/token", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = await answer.json();
  if (!answer.ok) throw new Error(body.error);
  await sdk.commands.authenticate({ access_token: body.access_token });
  connect(body.access_token, sdk.instanceId);
}

function connect(token, instanceId) {
  const url = new URL("api/live", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(url);
  page.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", access_token: token, instance_id: instanceId }));
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    if (page.fatal) return;
    say("error", t("lost"));
    setTimeout(() => connect(token, instanceId), 2000);
  };
}

function send(message) {
  say("error", "");
  page.ws.send(JSON.stringify(message));
}

// The viewer's palette (/crosshairs palette, else their server's), as the bot's pictures
// draw it: the board's sky, edges, clouds and names, and the page around it.
function paint(palette) {
  if (!palette) return;
  const style = document.documentElement.style;
  for (const [name, key] of [["--page", "page"], ["--sky", "sky"], ["--edge", "sky_edge"],
    ["--cloud", "cloud"], ["--label", "label"], ["--text", "text"]]) {
    style.setProperty(name, palette[key]);
  }
  document.body.dataset.palette = palette.name;
}

function receive(m) {
  if (m.type === "welcome") {
    page.texts = m.texts; page.board = m.board; page.you = m.you;
    paint(m.palette);
    say("position-label", t("position")); say("clock-label", t("clock"));
    tables(m.tables);
  } else if (m.type === "state") {
    const fresh = !page.state || page.state.ply !== m.ply || page.state.match !== m.match;
    const before = page.state && page.state.match === m.match ? page.state.cards || [] : null;
    page.state = m;
    document.body.classList.remove("idle");
    if (fresh) page.selected = null;
    draw();
    // what the page shows, for whoever reads it from outside (a test, a bench)
    document.body.dataset.ply = String(m.ply);
    document.body.dataset.over = String(m.over);
    document.body.dataset.mine = String(Boolean(m.choices));
    // a card claimed by this action is read out with it, as the thread posts it
    const won = (m.cards || []).filter((c) => c.by && before && !before.some((b) => b.card === c.card && b.by));
    const claims = won.map((c) => `🃏 ${c.name}: ${t("claimed").replace("{who}", c.by)}`);
    if (fresh) say("told", [m.so_far, m.status, ...claims].filter(Boolean).join("\n"));
  } else if (m.type === "lobby") {
    lobby(m);
  } else if (m.type === "tables") {
    tables(m.tables); // a match begun in this channel since the page opened
  } else if (m.type === "watchers") {
    if (page.state) { page.state.watchers = m.watchers; watchers(); }
  } else if (m.type === "refused") {
    say("error", "⚠️ " + m.text);
    if (m.fatal) page.fatal = true;
  }
}

function tables(list) {
  const nav = $("tables");
  nav.replaceChildren();
  if (!list.length) { say("hint", t("none")); return; }
  if (list.length < 2) return;
  for (const table of list) {
    const b = document.createElement("button");
    b.textContent = `#${table.match} ${table.title}` + (table.here ? "" : ` · ${t("elsewhere")}`);
    b.onclick = () => send({ type: "watch", match: table.match });
    nav.appendChild(b);
  }
}

// The lobby: the challenges one asked or is asked, answered here as with the posted
// challenge's buttons, and a new challenge to someone else in this live board.
function lobby(m) {
  $("lobby").hidden = false;
  say("lobby-label", `⚔️ ${t("challenges")}` + (m.challenges.length ? ` (${m.challenges.length})` : ""));
  const list = $("challenges");
  if (anew(list, m.challenges)) {
    for (const c of m.challenges) {
      const p = document.createElement("p");
      p.className = "challenge";
      p.textContent = c.text;
      const answer = (op) => () => send({ type: "challenge", op, challenge: c.challenge });
      if (c.answer) {
        p.append(" ", button(t("challenge_accept"), "success", answer("accept")),
          " ", button(t("challenge_decline"), "", answer("decline")));
      }
      if (c.withdraw) p.append(" ", button(t("withdraw"), "", answer("decline")));
      list.appendChild(p);
    }
  }
  const form = $("new-challenge");
  form.hidden = Boolean(m.closed);
  const alone = !m.people.some((p) => !p.computer);
  say("lobby-note", m.closed || (alone ? t("nobody") : ""));
  if (form.hidden || !anew($("opponent"), m.people)) return;
  say("new-label", t("new_challenge"));
  for (const [id, key] of [["opponent-label", "opponent"], ["rules-label", "rules"],
    ["planes-label", "planes"], ["rated-label", "rated"], ["send-challenge", "send_challenge"]]) say(id, t(key));
  const choose = (select, options, chosen) => {
    const was = select.value;
    select.replaceChildren(...options.map(([value, text]) => new Option(text, value)));
    select.value = options.some(([value]) => value === was) ? was : chosen;
  };
  choose($("opponent"), m.people.map((p) => [p.id, p.name]), m.people[0].id);
  choose($("ruleset"), m.rulesets.map((r) => [r.key, r.title]), m.rulesets[0].key);
  choose($("planes"), m.planes.map((n) => [String(n), String(n)]), String(m.default_planes));
  form.onsubmit = (event) => {
    event.preventDefault();
    send({ type: "challenge", op: "ask", opponent: $("opponent").value, ruleset: $("ruleset").value,
      planes: Number($("planes").value), rated: $("rated").checked });
  };
}

// ------------------------------------------------------------ drawing

function corners(x, y, r) {
  const pts = [];
  for (let a = 30; a < 390; a += 60) {
    const rad = (a * Math.PI) / 180;
    pts.push(`${(x + r * Math.cos(rad)).toFixed(1)},${(y - r * Math.sin(rad)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function arrow(facing, size) {
  // a plane's nose points along its facing (counter-clockwise from east, y down)
  const a = (facing * 60 * Math.PI) / 180;
  const p = (d, s) => [Math.cos(a + s) * d * size, -Math.sin(a + s) * d * size];
  const [n, l, r, b] = [p(1, 0), p(0.8, 2.4), p(0.8, -2.4), p(0.35, Math.PI)];
  return `M${n} L${l} L${b} L${r} Z`;
}

function cellName(c) { return page.board.cells[c].name; }

// Each part of the page is drawn again only when what it shows changed. A state of the
// same ply (a draw offered or declined, a refusal) must not replace the element under a
// finger or pointer on its way to a tap: the tap would land on nothing (as the
// playground's presses once did, docs/localcord.md).
function anew(node, what) {
  const key = JSON.stringify(what);
  if (node.dataset.drawn === key) return false;
  node.dataset.drawn = key;
  node.replaceChildren();
  return true;
}

function draw() {
  const s = page.state, g = page.board, svg = $("board");
  const choices = s.choices;
  const acting = new Map((choices ? choices.planes : []).map((p) => [p.cell, p]));
  // a plane that may act is chosen already (one tap flies it); "place": placing one
  const planes = choices ? choices.planes : [];
  const flying = planes.find((p) => p.poses.some((pose) => pose.cell !== null)) || planes[0];
  const first = flying ? flying.cell : null;
  if (page.selected === null || (page.selected !== PLACE && !acting.has(page.selected))) page.selected = first;
  if (page.selected === PLACE && !(choices && choices.places.length)) page.selected = first;
  panel();
  const seats = s.seats.map((x) => [x.name, x.colour]);
  if (!anew(svg, [s.match, s.ply, s.clouds, s.planes, seats, choices, page.selected])) return;
  svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
  const clouds = new Set(s.clouds);
  g.cells.forEach((c, i) => {
    el("polygon", { points: corners(c.x, c.y, g.r * 0.97), class: clouds.has(i) ? "cell cloud" : "cell" }, svg);
    el("text", { x: c.x, y: c.y - g.r * 0.45, class: "name" }, svg).textContent = c.name;
  });
  for (const line of s.fire) drawFire(svg, line);
  for (const plane of s.planes) drawPlane(svg, plane, acting.has(plane.cell));
  if (choices) {
    const chosen = acting.get(page.selected);
    drawPoses(svg, chosen ? chosen.poses : choices.places, page.selected);
    for (const shot of choices.shots) drawTarget(svg, shot);
    for (const cloud of choices.clouds) drawTarget(svg, cloud);
  }
}

// A line of fire as the thread's board draws it: dashed in the plane's colour, stopping
// at the nose of a plane it reaches rather than across it.
function drawFire(svg, line) {
  const g = page.board, a = g.cells[line.from], b = g.cells[line.to];
  const aimed = page.state.planes.some((p) => p.cell === line.to);
  const d = Math.hypot(b.x - a.x, b.y - a.y), cut = aimed ? (g.r * 0.55) / d : 0;
  const to = { x: b.x - (b.x - a.x) * cut, y: b.y - (b.y - a.y) * cut };
  const ends = { x1: a.x, y1: a.y, x2: to.x, y2: to.y };
  el("line", { ...ends, class: "fire-halo" }, svg);
  el("line", { ...ends, class: "fire", stroke: page.state.seats[line.seat].colour }, svg);
}

function drawPlane(svg, plane, acting) {
  const g = page.board, c = g.cells[plane.cell], seat = page.state.seats[plane.seat];
  const group = el("g", { class: "plane", transform: `translate(${c.x},${c.y + g.r * 0.15})` }, svg);
  const label = `${seat.name}: ${c.name}, ${plane.height}`;
  if (acting) {
    group.classList.add("acting");
    if (page.selected === plane.cell) group.classList.add("selected");
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
    group.setAttribute("aria-pressed", String(page.selected === plane.cell));
    el("circle", { r: g.r * 0.78, class: "ring" }, group);
    const pick = () => { page.selected = plane.cell; draw(); };
    group.addEventListener("click", pick);
    group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
  }
  group.setAttribute("aria-label", label);
  el("path", { d: arrow(plane.facing, g.r * 0.62), fill: seat.colour }, group);
  el("text", { y: 5 }, group).textContent = String(plane.height);
  if (plane.diving) el("circle", { r: g.r * 0.3, fill: "none", stroke: "#fff", "stroke-width": 2 }, group);
}

function drawPoses(svg, poses, from) {
  const g = page.board;
  const cells = new Set(poses.filter((p) => p.cell !== null).map((p) => p.cell));
  for (const c of cells) {
    const at = g.cells[c];
    el("polygon", { points: corners(at.x, at.y, g.r * 0.9), class: "reach" }, svg);
  }
  const seen = new Map();
  for (const pose of poses) {
    const lost = pose.cell === null;
    const key = lost ? "lost" : `${pose.cell}:${pose.facing}`;
    const k = seen.get(key) || 0;
    seen.set(key, k + 1);
    let x, y;
    if (lost) {  // a crash: marked on the plane itself, below its nose
      const at = g.cells[from];
      [x, y] = [at.x + g.r * 0.45 * (k - 0.5), at.y + g.r * 0.62];
    } else {
      const at = g.cells[pose.cell];
      const a = (pose.facing * 60 * Math.PI) / 180, d = g.r * (0.52 - 0.3 * k);
      [x, y] = [at.x + Math.cos(a) * d, at.y - Math.sin(a) * d];
    }
    const kind = lost ? "pose crash" : pose.shots.length ? "pose shoots" : "pose";
    const group = el("g", { class: kind, transform: `translate(${x},${y})`,
      tabindex: "0", role: "button", "aria-label": pose.label }, svg);
    el("circle", { r: g.r * 0.4, class: "hit" }, group);
    if (lost) {
      el("text", { y: 5, x: 0, class: "crash-mark" }, group).textContent = "✕";
    } else {
      el("path", { d: arrow(pose.facing, g.r * 0.42) }, group);
      el("text", { y: 5, x: 0 }, group).textContent = String(pose.height);
    }
    el("title", {}, group).textContent = pose.label;
    const play = () => send({ type: "play", ply: page.state.ply, tokens: pose.tokens });
    group.addEventListener("click", play);
    group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); play(); } });
    if (!lost) {
      group.addEventListener("mouseenter", () => aims(svg, pose));
      group.addEventListener("focus", () => aims(svg, pose));
    }
  }
}

function aims(svg, pose) {
  for (const old of svg.querySelectorAll(".aim")) old.remove();
  const g = page.board, from = g.cells[pose.cell];
  for (const shot of pose.shots) {
    const to = g.cells[shot];
    el("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "aim" }, svg);
  }
}

function drawTarget(svg, target) {
  const g = page.board, at = g.cells[target.cell];
  const group = el("g", { class: "target", transform: `translate(${at.x},${at.y})`, tabindex: "0",
    role: "button", "aria-label": target.label }, svg);
  el("circle", { r: g.r * 0.8, class: "hit" }, group);
  el("circle", { r: g.r * 0.6, class: "mark" }, group);
  const fire = () => send({ type: "play", ply: page.state.ply, tokens: [target.token] });
  group.addEventListener("click", fire);
  group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fire(); } });
}

// ------------------------------------------------------------ the panel

function button(text, style, onclick) {
  const b = document.createElement("button");
  b.textContent = text;
  if (style) b.className = style;
  b.onclick = onclick;
  return b;
}

function panel() {
  const s = page.state;
  say("title", s.title);
  say("status", s.status);
  say("so-far", s.so_far);
  say("words", s.words);
  const seats = $("seats");
  if (anew(seats, s.seats)) {
    for (const seat of s.seats) {
      const li = document.createElement("li");
      if (seat.to_move) li.className = "to-move";
      if (seat.out) li.className = "out";
      const dot = document.createElement("span");
      dot.className = "swatch";
      dot.style.background = seat.colour;
      li.append(dot, seat.name + (seat.offers_draw ? " 🤝" : ""));
      seats.appendChild(li);
    }
  }
  cards(s.cards || []);
  const mine = s.choices;
  say("hint", s.over ? "" : mine ? t("choose") : s.seated ? t("waiting") : t("watching"));
  // beside the board: what is not a mark on it; every choice again, as a list, folded
  const near = $("choices"), list = $("list");
  $("list-box").hidden = !mine;
  if (anew(near, [s.match, s.ply, mine, page.selected]) && mine) {
    const chosen = mine.planes.find((p) => p.cell === page.selected);
    if (chosen && mine.places.length) {
      near.appendChild(button("➕ " + t("place"), "", () => { page.selected = PLACE; draw(); }));
    }
    if (mine.end) near.appendChild(button(mine.end.label, "success", () => send({ type: "play", ply: s.ply, tokens: [mine.end.token] })));
  }
  if (anew(list, [s.match, s.ply, mine, page.selected]) && mine) {
    const chosen = mine.planes.find((p) => p.cell === page.selected);
    const poses = chosen ? chosen.poses : mine.places;
    for (const pose of poses) {
      list.appendChild(button(pose.label, "primary", () => send({ type: "play", ply: s.ply, tokens: pose.tokens })));
    }
    for (const shot of [...mine.shots, ...mine.clouds]) {
      list.appendChild(button("🎯 " + shot.label, "danger", () => send({ type: "play", ply: s.ply, tokens: [shot.token] })));
    }
    say("list-label", `${t("list")} (${list.children.length})`);
  }
  const actions = $("actions");
  const theirs = s.draw_offered && !s.seats.some((x) => x.you && x.offers_draw);
  if (anew(actions, [s.seated, s.over, s.draw_offered, theirs, s.rematch, s.takeback])) {
    if (s.takeback) takeback(actions, s.takeback);
    if (s.seated && !s.over) {
      if (theirs) {
        actions.appendChild(button(t("accept"), "success", () => send({ type: "draw" })));
        actions.appendChild(button(t("decline"), "", () => send({ type: "decline" })));
      } else if (!s.draw_offered) {
        actions.appendChild(button(t("draw"), "", () => send({ type: "draw" })));
      }
      actions.appendChild(button(t("resign"), "danger", confirmResign));
    }
    if (s.rematch) rematch(actions, s.rematch);
  }
  watchers();
  clock();
}

// A line among the actions saying where an offer or a request stands (by its id the
// browser tests find it).
function said(actions, id, text) {
  if (!text) return;
  const p = document.createElement("p");
  p.id = id;
  p.textContent = text;
  actions.appendChild(p);
}

// At the end: Rematch, an offer to answer or withdraw, or what became of it; the server
// checks each tap as it checks the thread's buttons, and every page of the match follows.
function rematch(actions, r) {
  said(actions, "rematch", r.text);
  if (r.ask) actions.appendChild(button("🔁 " + t("rematch"), "primary", () => send({ type: "rematch", op: "ask" })));
  if (r.answer) {
    actions.appendChild(button(t("rematch_accept"), "success", () => send({ type: "rematch", op: "accept", offer: r.offer })));
    actions.appendChild(button(t("rematch_decline"), "", () => send({ type: "rematch", op: "decline", offer: r.offer })));
  }
  if (r.withdraw) actions.appendChild(button(t("withdraw"), "", () => send({ type: "rematch", op: "decline", offer: r.offer })));
  if (r.go) actions.appendChild(button("➡️ " + t("go"), "primary", () => send({ type: "watch", match: r.go })));
}

// An achievement series' game: its cards, each with its rule, and who claimed it so far.
function cards(list) {
  $("cards-box").hidden = !list.length;
  const shown = $("cards");
  if (!anew(shown, list)) return;
  say("cards-label", `🃏 ${t("cards")} (${list.length})`);
  for (const card of list) {
    const li = document.createElement("li");
    li.title = card.rule;
    li.textContent = `${card.name} (${card.points}) · ${card.rule}`;
    if (card.by) {
      li.className = "claimed";
      li.textContent += ` — ✅ ${t("claimed").replace("{who}", card.by)}`;
    }
    shown.appendChild(li);
  }
}

// In an unrated game: take back one's latest turn, or answer (or wait for) a request;
// checked by the server as the thread's command and buttons are.
function takeback(actions, r) {
  said(actions, "takeback", r.text);
  if (r.ask) actions.appendChild(button("↩️ " + t("takeback"), "", () => send({ type: "takeback", op: "ask" })));
  if (r.answer) {
    actions.appendChild(button(t("takeback_accept"), "success", () => send({ type: "takeback", op: "accept", takeback: r.takeback })));
    actions.appendChild(button(t("takeback_decline"), "", () => send({ type: "takeback", op: "decline", takeback: r.takeback })));
  }
}

function watchers() {
  const s = page.state;
  say("watchers", s.watchers.length ? `👁 ${t("watching")}: ${s.watchers.join(", ")}` : "");
}

let ticking = null;
function clock() {
  const s = page.state;
  clearInterval(ticking);
  $("clock").hidden = s.left === null;
  if (s.left === null) return;
  const end = Date.now() + s.left * 1000;
  const show = () => {
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    say("clock-left", `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`);
  };
  show();
  ticking = setInterval(show, 1000);
}

function confirmResign() {
  const dialog = $("confirm");
  say("confirm-text", t("sure"));
  say("confirm-yes", t("yes"));
  say("confirm-no", t("no"));
  $("confirm-yes").onclick = () => { dialog.close(); send({ type: "resign" }); };
  $("confirm-no").onclick = () => dialog.close();
  dialog.showModal();
}

signIn().catch((error) => { say("error", "⚠️ " + error.message); });
