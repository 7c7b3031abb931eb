// The home page: join a room by its code, or open one (docs/protocol.md, POST /api/rooms).

import { deckEditor, number, optionFields, readOptions } from "./cards.js";
import { fill, h } from "./dom.js";
import { helpLink } from "./help.js";
import { lang, languageName, refusal, t } from "./i18n.js";
import { keep } from "./tokens.js";

const CODE = /^[A-HJKMNP-Z2-9]{5}$/;

export async function homePage(app) {
  document.getElementById("where").textContent = "";
  const books = await (await fetch(`/api/rulebooks?lang=${lang()}`)).json();
  fill(app, joinSection(), createSection(books));
  helpLink(document.getElementById("rules")?.value);
}

function joinSection() {
  const code = h("input", {
    id: "join-code",
    name: "code",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    maxlength: 5,
    required: true,
    pattern: "[A-Za-z0-9]{5}",
    class: "code-input",
  });
  const problem = h("p", { class: "problem", role: "alert" });
  const form = h(
    "form",
    {
      class: "card",
      onsubmit: (event) => {
        event.preventDefault();
        const wanted = code.value.trim().toUpperCase();
        if (!CODE.test(wanted)) {
          problem.textContent = t("bad_code");
          return;
        }
        location.href = `/?room=${wanted}`;
      },
    },
    h("h2", {}, t("join_title")),
    h("label", { for: "join-code" }, t("room_code")),
    code,
    problem,
    h("button", { type: "submit", class: "primary" }, t("join")),
  );
  return form;
}

function createSection(books) {
  const form = createFields(books);
  wire(form);
  showOptions(form);
  form.editor.show();
  return createForm(form);
}

/** The form's fields, by name: each built once, read by the other functions here. */
function createFields(books) {
  const f = { books, timingRows: [] };
  f.problem = h("p", { class: "problem", role: "alert" });
  // A refusal is told next to the field it is about (the name, the players' names, the
  // deck), not only at the bottom of the form.
  f.nameProblem = h("p", { class: "problem", role: "alert", id: "host-name-problem" });
  f.namesProblem = h("p", { class: "problem", role: "alert", id: "names-problem" });
  f.rules = h(
    "select",
    { id: "rules", name: "rules" },
    books.map((book) => h("option", { value: book.id }, book.name)),
  );
  f.players = number("players", 8, 2, 40);
  f.hostName = h("input", {
    id: "host-name",
    name: "host_name",
    maxlength: 24,
    autocomplete: "nickname",
    required: true,
  });
  f.mode = h(
    "select",
    { id: "mode", name: "mode" },
    h("option", { value: "players" }, t("mode_players")),
    h("option", { value: "leader" }, t("mode_leader")),
  );
  f.roomLang = h("select", { id: "room-lang", name: "lang" });
  f.options = h("div", { id: "options" });
  // A rulebook without options (maffia, Lupusburg) shows no empty box for them.
  f.optionsBox = h("fieldset", { id: "options-box" }, h("legend", {}, t("options")), f.options);
  f.names = h("textarea", { id: "names", name: "names", rows: 4 });
  f.namesRow = h("div", { class: "field", hidden: true }, h("label", { for: "names" }, t("leader_names")), f.names, f.namesProblem);
  f.hostRow = h("div", { class: "field" }, h("label", { for: "host-name" }, t("your_name")), f.hostName, f.nameProblem);
  f.night = number("timer-night", "", 1, 3600);
  f.day = number("timer-day", "", 1, 7200);
  // Timers by default (the rulebook's); the host may change them or switch them off,
  // and is told in plain words what no timers means.
  f.noTimers = h("input", { id: "no-timers", type: "checkbox" });
  f.noTimersWarning = h("p", { class: "warning", id: "no-timers-warning", role: "note", hidden: true }, t("no_timers_warning"));
  f.pace = number("pace", 8, 0, 600, 0.1);
  f.table = h("input", { id: "table", type: "checkbox" });
  // Off unless the host allows them: a spectator may be anyone, a player in a second tab.
  f.spectators = h("input", { id: "spectators", type: "checkbox" });
  f.tableRow = h("div", { class: "field check" }, f.table, h("label", { for: "table" }, t("table_mode")));
  f.book = () => books.find((b) => b.id === f.rules.value);
  // The deck's editor, the lobby's too (cards.js): an edited composition, or null (the
  // recommended one).
  f.editor = deckEditor({ state: { counts: null }, book: f.book, players: () => f.players.value, options: f.options });
  return f;
}

/** What the fields do when they change. */
function wire(f) {
  f.noTimers.addEventListener("change", () => {
    f.noTimersWarning.hidden = !f.noTimers.checked;
    f.night.disabled = f.day.disabled = f.noTimers.checked;
  });
  f.rules.addEventListener("change", () => {
    helpLink(f.rules.value); // (the header's Rules: the rulebook chosen)
    f.editor.state.counts = null;
    showOptions(f);
    f.editor.show();
  });
  // The card editor follows the size: a new size starts from its recommended deck.
  f.players.addEventListener("input", () => f.editor.resized());
  f.mode.addEventListener("change", () => {
    const leader = f.mode.value === "leader";
    f.namesRow.hidden = !leader;
    f.hostRow.hidden = leader;
    f.tableRow.hidden = leader;
    for (const row of f.timingRows) row.hidden = leader;
    f.hostName.required = !leader;
    f.nameProblem.textContent = f.namesProblem.textContent = "";
  });
}

/** The chosen rulebook's options, languages, size and timers. */
function showOptions(f) {
  const b = f.book();
  fill(f.options, optionFields(b));
  f.optionsBox.hidden = !f.options.children.length;
  fill(
    f.roomLang,
    b.languages.map((code) => h("option", { value: code, lang: code }, languageName(code))),
  );
  if (b.languages.includes(lang())) f.roomLang.value = lang();
  f.players.min = b.min_players;
  f.players.max = b.max_players;
  f.night.value = b.timers?.night ?? "";
  f.day.value = b.timers?.day ?? "";
}

async function submit(f, event) {
  event.preventDefault();
  for (const p of [f.problem, f.nameProblem, f.namesProblem, f.editor.problem]) p.textContent = "";
  const leader = f.mode.value === "leader";
  if (!leader && !f.hostName.value.trim()) {
    f.nameProblem.textContent = t("name_blank");
    f.hostName.focus();
    return;
  }
  if (leader && !f.names.value.trim()) {
    f.namesProblem.textContent = t("names_blank");
    f.names.focus();
    return;
  }
  const answer = await fetch("/api/rooms", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(settingsOf(f, leader)),
  });
  const body = await answer.json();
  if (!answer.ok) {
    refused(f, body, leader);
    return;
  }
  keep(body.room, body.host_token, true);
  location.href = `/?room=${body.room}`;
}

/** The new room's settings, as the form holds them. */
function settingsOf(f, leader) {
  const b = f.book();
  const settings = {
    rules: b.id,
    players: Number(f.players.value),
    lang: f.roomLang.value,
    mode: f.mode.value,
    options: readOptions(b),
    pace: Number(f.pace.value || 0),
    table: !leader && f.table.checked,
    spectators: f.spectators.checked,
  };
  const counts = f.editor.chosen();
  if (counts) settings.composition = counts;
  const timers = readTimers(f, b);
  if (timers !== undefined) settings.timers = timers;
  if (leader) settings.names = f.names.value.split("\n").map((n) => n.trim()).filter(Boolean);
  else settings.host_name = f.hostName.value.trim();
  return settings;
}

/** A refusal, said next to what it is about: a name, the players' names, else the deck.
 * (by its reason: the words are the reader's language, the English message tells the
 * engine's own reasons apart) */
function refused(f, body, leader) {
  const reason = body.reason || "";
  const names = ["host_name", "bad_name", "leader_names_count", "names_leader_only"].includes(reason) || (reason === "rules" && /\bnames?\b|reserved/i.test(body.message || ""));
  const cards = ["players_range", "rules", "no_rulebook"].includes(reason);
  const about = names ? (leader ? f.namesProblem : f.nameProblem) : cards ? f.editor.problem : f.problem;
  about.textContent = refusal(body);
}

/** The timers to send: none of them (the rulebook's), the host's own, or "off". A
 * server that gives no rulebook timers takes only the host's own. */
function readTimers(f, b) {
  const given = (input) => (input.value === "" ? null : Number(input.value));
  const { night, day } = f;
  if (b.timers === undefined) {
    const own = {};
    if (given(night) !== null) own.night = given(night);
    if (given(day) !== null) own.day = given(day);
    return own;
  }
  if (f.noTimers.checked) return "off";
  const same = given(night) === (b.timers.night ?? null) && given(day) === (b.timers.day ?? null);
  if (same) return undefined;
  // A new night (or day) time scales the rulebook's own timer of each night (day)
  // step alike: the pack keeps its longer time than the Seer, in the host's measure.
  const nights = new Set(b.night_steps || []);
  const ratio = (wanted, was) => (wanted === null || !was ? 1 : wanted / was);
  const byNight = ratio(given(night), b.timers.night);
  const byDay = ratio(given(day), b.timers.day);
  const steps = {};
  for (const [step, secs] of Object.entries(b.timers.steps || {})) {
    steps[step] = Math.max(1, Math.round(secs * (nights.has(step) ? byNight : byDay)));
  }
  return { night: given(night), day: given(day), steps };
}

/** The form itself. What a game leader's room has no use for (he keeps the time, and
 * his table has no phones) is shown only in a room of players (`timingRows`). */
function createForm(f) {
  const timing = [
    h("div", { class: "field" }, h("label", { for: "timer-night" }, t("timer_night")), f.night),
    h("div", { class: "field" }, h("label", { for: "timer-day" }, t("timer_day")), f.day),
    h("div", { class: "field check" }, f.noTimers, h("label", { for: "no-timers" }, t("no_timers"))),
    h("div", {}, f.noTimersWarning),
    h("div", { class: "field" }, h("label", { for: "pace" }, t("pace")), f.pace, h("p", { class: "hint" }, t("pace_help"))),
  ];
  f.timingRows.push(...timing);
  return h(
    "form",
    { class: "card", id: "create", onsubmit: (event) => submit(f, event), novalidate: true },
    h("h2", {}, t("create_title")),
    h("div", { class: "field" }, h("label", { for: "rules" }, t("rulebook")), f.rules),
    h("div", { class: "field" }, h("label", { for: "players" }, t("players")), f.players),
    h("div", { class: "field" }, h("label", { for: "mode" }, t("mode")), f.mode),
    f.hostRow,
    f.tableRow,
    f.namesRow,
    h("fieldset", {}, h("legend", {}, t("cards")), f.editor.element),
    h("details", {},
      h("summary", {}, t("more_settings")),
      f.optionsBox,
      h("div", { class: "field" }, h("label", { for: "room-lang" }, t("room_language")), f.roomLang),
      ...timing,
      h("div", { class: "field check" }, f.spectators, h("label", { for: "spectators" }, t("spectators"))),
    ),
    f.problem,
    h("button", { type: "submit", class: "primary" }, t("create")),
  );
}
