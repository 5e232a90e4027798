// The playground page: polls /play/state and acts through /play/command, /play/click
// and /play/autocomplete, as the selected person.
"use strict";

const $ = (sel) => document.querySelector(sel);
const SHOWN = 80; // messages shown at first; "Load older" adds as many again
const page = { version: -1, digest: "", channel: "", viewer: "", commands: [], people: [], polling: 0, unshown: false, suggestions: 0, limit: SHOWN, words: {}, wordsDrawn: 0 };

// The page's own words in the viewer's language, as Discord's client speaks the person's.
function say(key, values = {}) {
  return (page.words[key] || key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

function post(path, body) {
  const failed = path === "/play/click" || path === "/play/choose" ? "This interaction failed: " : "";
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ viewer: page.viewer, channel: page.channel, ...body }),
  }).then(async (r) => {
    const data = await r.json().catch(() => ({}));
    $("#error").textContent = r.ok ? "" : failed + (data.error || `error ${r.status}`);
    return data;
  }, (e) => {
    // the request never reached the playground (it stopped, say): as a failed press
    $("#error").textContent = failed + e.message;
    return {};
  });
}

async function poll() {
  const ticket = ++page.polling;
  while (ticket === page.polling) {
    // the digest of what is drawn: the server answers only once the page would differ
    const query = new URLSearchParams({ since: page.version, digest: page.digest, viewer: page.viewer, channel: page.channel, limit: page.limit,
      platform: phone() ? "mobile" : "desktop" });
    let state;
    try {
      state = await (await fetch(`/play/state?${query}`)).json();
    } catch (e) {
      await new Promise((ok) => setTimeout(ok, 1000)); // the server away: asked again
      continue;
    }
    if (ticket !== page.polling) return;
    try {
      render(state);
      if (page.unshown) $("#error").textContent = "";
      page.unshown = false;
    } catch (e) {
      // Said, not swallowed: the next poll brings the same state and fails the same way,
      // and a page that silently stops changing looks like a press that was lost.
      console.error(e);
      page.unshown = true;
      page.version = -1; // drawn again in full at the next poll
      page.digest = "";
      $("#error").textContent = say("unshown", { error: e.message });
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }
}

// Seeing another person or channel means asking afresh rather than waiting for a change.
function refresh() {
  page.version = -1;
  page.digest = "";
  poll();
}

function render(state) {
  page.version = state.version;
  if (state.digest === page.digest) return; // a long poll's end with nothing new
  page.digest = state.digest;
  page.channel = state.channel;
  page.people = state.people;
  renderWords(state.words);
  if (renderViewers(state.people)) return refresh(); // now as the person chosen, not a spectator
  renderChannels(state.channels);
  renderEvents(state.events);
  renderCommands(state.commands);
  renderMessages(state.messages, state.viewer, state.older);
  renderActivity(state.activity);
}

// ------------------------------------------------------------ Activities

const phone = () => window.matchMedia("(max-width: 640px)").matches;

// The Activity the viewer has open, in the frame that plays Discord's client around it
// (made once per instance and person: re-rendering must not reload the Activity), and
// Join where one runs in the channel.
function renderActivity(activity) {
  const panel = $("#activity");
  const open = activity.open;
  const key = open ? `${open.instance}/${page.viewer}` : "";
  if (panel.dataset.key !== key) {
    panel.dataset.key = key;
    panel.querySelector("iframe")?.remove();
    document.body.classList.remove("activity-minimised");
    if (open) {
      const frame = document.createElement("iframe");
      frame.title = open.channel;
      frame.src = open.frame;
      frame.allow = "autoplay; clipboard-write";
      panel.append(frame);
    }
  }
  panel.hidden = !open;
  $("#launcher").hidden = !activity.launcher;
  $("#activity-name").textContent = open ? "# " + open.channel : "";
  $("#activity-return").hidden = !open || !document.body.classList.contains("activity-minimised");
  const here = $("#activity-here");
  here.hidden = !activity.here;
  if (activity.here) here.querySelector("span").textContent = say("running", { names: activity.here.people.join(", ") });
}

function minimise(yes) {
  document.body.classList.toggle("activity-minimised", yes);
  $("#activity-return").hidden = !yes;
}
$("#launcher").addEventListener("click", () => post("/play/activity/launch", {}));
$("#activity-here button").addEventListener("click", () => post("/play/activity/join", {}));
$("#activity-leave").addEventListener("click", () => post("/play/activity/leave", {}));
$("#activity-back").addEventListener("click", () => minimise(true));
$("#activity-return").addEventListener("click", () => minimise(false));

function renderWords(words) {
  if (JSON.stringify(words) === JSON.stringify(page.words)) return;
  page.words = words;
  page.wordsDrawn += 1; // the messages' own words (a note, "thinking") are drawn again
  for (const e of document.querySelectorAll("[data-word]")) e.textContent = say(e.dataset.word);
  for (const e of document.querySelectorAll("[data-word-label]")) e.setAttribute("aria-label", say(e.dataset.wordLabel));
  for (const e of document.querySelectorAll("[data-word-placeholder]")) e.placeholder = say(e.dataset.wordPlaceholder);
}

// The people to act as, filled once; true the first time, when the viewer is chosen.
function renderViewers(people) {
  const select = $("#viewer");
  if (select.options.length) return false;
  for (const p of people.filter((p) => !p.bot)) select.add(new Option(p.name, p.id));
  page.viewer = select.value;
  select.addEventListener("change", () => { page.viewer = select.value; showSidebar(false); refresh(); });
  return true;
}

function renderChannels(channels) {
  const list = $("#channels");
  list.replaceChildren();
  const firstDm = channels.find((c) => c.dm);
  for (const c of channels) {
    const li = document.createElement("li");
    li.textContent = (c.dm ? "@ " : c.thread ? "🧵 " : "# ") + c.name;
    li.dataset.channel = c.id;
    li.className = [c.thread && "thread", c === firstDm && "dm-first", c.id === page.channel && "current"]
      .filter(Boolean).join(" ");
    li.addEventListener("click", () => switchChannel(c.id));
    list.append(li);
    if (c.id === page.channel) $("#channel-name").textContent = li.textContent;
  }
}

// The server's Events, as Discord lists them: each with its time and an Interested button.
function renderEvents(events) {
  const list = $("#events");
  list.replaceChildren();
  $("#events-head").hidden = !events.length;
  for (const e of events) {
    const li = document.createElement("li");
    const when = e.live ? say("live") : new Date(e.start * 1000).toLocaleString();
    const head = document.createElement("div");
    head.textContent = `📅 ${e.name} · ${when}`;
    head.title = e.description;
    const button = document.createElement("button");
    button.type = "button";
    button.className = e.interested ? "interested chosen" : "interested";
    button.textContent = `${e.interested ? "✓ " : ""}${say("interested")} (${e.count})`;
    button.addEventListener("click", () => post("/play/interested", { event: e.id }));
    li.append(head, button);
    list.append(li);
  }
}

function switchChannel(id) {
  page.channel = id;
  page.limit = SHOWN;
  showSidebar(false);
  refresh();
}

// On a phone the sidebar is folded away; ☰ opens it, choosing a channel closes it.
function showSidebar(open) {
  document.body.classList.toggle("show-sidebar", open);
  $("#menu-toggle").setAttribute("aria-expanded", String(open));
}
$("#menu-toggle").addEventListener("click", () => showSidebar(!document.body.classList.contains("show-sidebar")));

function renderCommands(commands) {
  if (JSON.stringify(commands) === JSON.stringify(page.commands)) return;
  page.commands = commands;
  $("#command-list").replaceChildren(...commands.map((c) => new Option(c.description, "/" + c.name)));
}

// Like Discord, the view follows the newest message unless the person scrolled up to
// read; images that finish loading later would otherwise push the newest out of view.
const view = { stick: true };

function toBottom() {
  const box = $("#messages");
  if (view.stick) box.scrollTop = box.scrollHeight;
}

// Only the person's own scrolling decides whether to follow: the page's re-renders and
// late-loading images scroll the box too, and must not unstick it.
function personScrolled() {
  setTimeout(() => {
    const box = $("#messages");
    view.stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 40;
  }, 0);
}
for (const kind of ["wheel", "touchmove", "keydown", "mousedown"]) {
  $("#messages").addEventListener(kind, personScrolled, { passive: true });
}

// Only the messages that changed are drawn again, as Discord's client does: a message
// left as it was keeps its elements, so a press on it is never lost because another
// message (the thread's board, say) changed between the pointer's down and up.
function renderMessages(messages, viewer, older) {
  const box = $("#messages");
  box.dataset.viewer = viewer;
  const drawn = new Map([...box.querySelectorAll(":scope > .message")].map((e) => [e.dataset.key, e]));
  const wanted = messages.map((m) => {
    const key = `${viewer}/${page.wordsDrawn}/${JSON.stringify(m)}`;
    let element = drawn.get(key);
    drawn.delete(key);
    if (!element) {
      element = messageElement(m);
      element.dataset.key = key;
      for (const img of element.querySelectorAll("img")) img.addEventListener("load", toBottom);
    }
    return element;
  });
  $("#older")?.remove();
  for (const gone of drawn.values()) gone.remove();
  wanted.forEach((element, i) => {
    if (box.children[i] !== element) box.insertBefore(element, box.children[i] || null);
  });
  if (older > 0) {
    const more = document.createElement("button");
    more.id = "older";
    more.type = "button";
    more.textContent = say("older", { n: older });
    more.addEventListener("click", () => {
      page.limit += SHOWN;
      view.stick = false; // stay where the person is reading
      refresh();
    });
    box.prepend(more);
  }
  toBottom();
}

function image(src, alt, className) {
  const img = document.createElement("img");
  img.src = src;
  img.alt = alt || "";
  if (alt) img.title = alt;
  img.className = className;
  return img;
}

function embedElement(e) {
  const box = document.createElement("div");
  box.className = "embed";
  if (e.colour) box.style.borderLeftColor = e.colour;
  const part = (cls, html) => {
    if (!html) return;
    const div = document.createElement("div");
    div.className = cls;
    div.innerHTML = html;
    box.append(div);
  };
  part("embed-author", e.author);
  part("embed-title", e.title);
  part("embed-description", e.description);
  if (e.fields.length) {
    const fields = document.createElement("div");
    fields.className = "embed-fields";
    for (const f of e.fields) {
      const div = document.createElement("div");
      div.className = "embed-field" + (f.inline ? " inline" : "");
      div.innerHTML = `<div class="embed-field-name">${f.name}</div><div class="embed-field-value">${f.value}</div>`;
      fields.append(div);
    }
    box.append(fields);
  }
  if (e.thumbnail) box.append(image(e.thumbnail.src, e.thumbnail.alt, "embed-thumbnail"));
  if (e.image) box.append(image(e.image.src, e.image.alt, "embed-image"));
  part("embed-footer", e.footer);
  return box;
}

// a custom emoji (the application's own) on a button or a menu option
function emojiImage(src) {
  const img = document.createElement("img");
  img.className = "emoji";
  img.src = src;
  img.alt = "";
  return img;
}

function buttonsRow(m, buttons) {
  const r = document.createElement("div");
  r.className = "row";
  for (const b of buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `style-${b.style}`;
    button.textContent = (b.emoji ? b.emoji + " " : "") + b.label;
    if (b.emoji_src) button.prepend(emojiImage(b.emoji_src));
    button.dataset.customId = b.custom_id;
    button.disabled = b.disabled;
    button.addEventListener("click", () => post("/play/click", { message: m.id, custom_id: b.custom_id }));
    r.append(button);
  }
  return r;
}

function selectRow(m, s) {
  const r = document.createElement("div");
  r.className = "row";
  const select = document.createElement("select");
  select.className = "menu";
  select.dataset.customId = s.custom_id;
  select.disabled = s.disabled;
  const placeholder = s.placeholder || say("select");
  select.setAttribute("aria-label", placeholder);
  // Discord shows each option's description under its label, on a phone too: a
  // customisable select (Chromium's appearance: base-select) draws both lines.
  const none = new Option(placeholder, "");
  none.hidden = true; // shown in the closed menu, not as an option
  select.add(none);
  for (const o of s.options) {
    const option = document.createElement("option");
    option.value = o.value;
    const label = document.createElement("span");
    label.className = "option-label";
    label.textContent = (o.emoji ? o.emoji + " " : "") + o.label;
    if (o.emoji_src) label.prepend(emojiImage(o.emoji_src));
    option.append(label);
    if (o.description) {
      const description = document.createElement("span");
      description.className = "option-description";
      description.textContent = o.description;
      option.append(description);
      option.dataset.description = o.description;
    }
    select.append(option);
  }
  select.addEventListener("change", async () => {
    if (!select.value) return;
    const said = await post("/play/choose", { message: m.id, custom_id: s.custom_id, values: [select.value] });
    // As Discord's client does when a press fails: the menu is offered again, unchosen.
    if (said.error) select.value = "";
  });
  r.append(select);
  return r;
}

function messageElement(m) {
  const div = document.createElement("div");
  div.className = "message" + (m.ephemeral ? " ephemeral" : "");
  div.dataset.id = m.id;
  const author = document.createElement("div");
  author.className = "author" + (m.bot ? " bot" : "");
  author.textContent = m.author;
  const text = document.createElement("div");
  text.className = "text";
  text.innerHTML = m.thinking ? `<i>${say("thinking")}</i>` : m.html;
  div.append(author, text);
  for (const a of text.querySelectorAll("a.channel-link")) {
    a.addEventListener("click", (e) => { e.preventDefault(); switchChannel(a.dataset.channel); });
  }
  for (const i of m.images) div.append(image(i.src, i.alt, "attachment"));
  for (const f of m.files) {
    const a = document.createElement("a");
    a.className = "file";
    a.href = f.href;
    a.download = f.name;
    a.textContent = "📄 " + f.name;
    if (f.alt) a.title = f.alt;
    div.append(a);
  }
  for (const e of m.embeds) div.append(embedElement(e));
  for (const row of m.rows) div.append(row.select ? selectRow(m, row.select) : buttonsRow(m, row.buttons));
  if (m.ephemeral) {
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = "👁 " + say("only_you");
    div.append(note);
  }
  return div;
}

function chosenCommand() {
  const name = $("#command").value.trim().replace(/^\//, "");
  return page.commands.find((c) => c.name === name);
}

function showOptions() {
  const command = chosenCommand();
  const box = $("#options");
  if (box.dataset.command === (command && command.name)) return;
  box.dataset.command = command ? command.name : "";
  box.replaceChildren();
  if (!command) return;
  for (const o of command.options) {
    const label = document.createElement("label");
    label.textContent = o.name + (o.required ? " *" : "");
    label.title = o.description || "";
    let field;
    if (o.choices || o.type === 5 || o.type === 6) {
      field = document.createElement("select");
      field.add(new Option(say(o.required ? "choose" : "default"), ""));
      const items = o.type === 6
        ? page.people.map((p) => ({ name: p.name + (p.bot ? " " + say("computer") : ""), value: p.id }))
        : o.type === 5 ? [{ name: say("yes"), value: "true" }, { name: say("no"), value: "false" }] : o.choices;
      for (const c of items) field.add(new Option(c.name, c.value));
    } else {
      field = document.createElement("input");
      field.type = o.type === 4 || o.type === 10 ? "number" : "text";
      if (o.autocomplete) {
        const list = document.createElement("datalist");
        list.id = `choices-${o.name}`;
        field.setAttribute("list", list.id);
        field.addEventListener("input", () => suggest(command, o.name, field, list));
        field.addEventListener("focus", () => suggest(command, o.name, field, list));
        label.append(list);
      }
    }
    field.name = o.name;
    label.append(field);
    box.append(label);
  }
}

function optionValues() {
  const values = {};
  for (const field of $("#options").querySelectorAll("input, select")) values[field.name] = field.value;
  return values;
}

async function suggest(command, focus, field, list) {
  const data = await post("/play/autocomplete", { command: command.name, focus, options: optionValues() });
  list.replaceChildren(...(data.choices || []).map((c) => new Option(c, c)));
  list.dataset.filled = String(++page.suggestions);
}

// What was typed since a command went: its answer clears the box only if nothing was.
let edits = 0;
$("#command").addEventListener("input", () => {
  edits++;
  showOptions();
});
$("#options").addEventListener("input", () => edits++);
$("#composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const command = chosenCommand();
  if (!command) {
    $("#error").textContent = say("pick");
    return;
  }
  // Discord's client will not send a command with a required option left empty.
  const values = optionValues();
  const missing = command.options.filter((o) => o.required && !values[o.name]).map((o) => o.name);
  if (missing.length) {
    $("#error").textContent = say("required", { names: missing.join(", ") });
    return;
  }
  const typed = edits;
  const data = await post("/play/command", { command: command.name, options: optionValues() });
  if (data.ok && edits === typed) {
    $("#command").value = "";
    showOptions();
  }
});

poll();
