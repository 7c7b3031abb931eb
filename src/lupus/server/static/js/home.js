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
  const problem = h("p", { class: "problem", role: "alert" });
  // A refusal is told next to the field it is about (the name, the players' names, the
  // deck), not only at the bottom of the form.
  const nameProblem = h("p", { class: "problem", role: "alert", id: "host-name-problem" });
  const namesProblem = h("p", { class: "problem", role: "alert", id: "names-problem" });
  const rules = h(
    "select",
    { id: "rules", name: "rules" },
    books.map((book) => h("option", { value: book.id }, book.name)),
  );
  const players = number("players", 8, 2, 40);
  const hostName = h("input", {
    id: "host-name",
    name: "host_name",
    maxlength: 24,
    autocomplete: "nickname",
    required: true,
  });
  const mode = h(
    "select",
    { id: "mode", name: "mode" },
    h("option", { value: "players" }, t("mode_players")),
    h("option", { value: "leader" }, t("mode_leader")),
  );
  const roomLang = h("select", { id: "room-lang", name: "lang" });
  const options = h("div", { id: "options" });
  // A rulebook without options (maffia, Lupusburg) shows no empty box for them.
  const optionsBox = h("fieldset", { id: "options-box" }, h("legend", {}, t("options")), options);
  const names = h("textarea", { id: "names", name: "names", rows: 4 });
  const namesRow = h("div", { class: "field", hidden: true }, h("label", { for: "names" }, t("leader_names")), names, namesProblem);
  const hostRow = h("div", { class: "field" }, h("label", { for: "host-name" }, t("your_name")), hostName, nameProblem);
  const night = number("timer-night", "", 1, 3600);
  const day = number("timer-day", "", 1, 7200);
  // Timers by default (the rulebook's); the host may change them or switch them off,
  // and is told in plain words what no timers means.
  const noTimers = h("input", { id: "no-timers", type: "checkbox" });
  const noTimersWarning = h("p", { class: "warning", id: "no-timers-warning", role: "note", hidden: true }, t("no_timers_warning"));
  noTimers.addEventListener("change", () => {
    noTimersWarning.hidden = !noTimers.checked;
    night.disabled = day.disabled = noTimers.checked;
  });
  const pace = number("pace", 8, 0, 600, 0.1);
  const table = h("input", { id: "table", type: "checkbox" });
  // Off unless the host allows them: a spectator may be anyone, a player in a second tab.
  const spectators = h("input", { id: "spectators", type: "checkbox" });
  const tableRow = h("div", { class: "field check" }, table, h("label", { for: "table" }, t("table_mode")));
  // What a game leader's room has no use for (he keeps the time, and his table has no
  // phones): shown only in a room of players.
  const timingRows = [];
  const book = () => books.find((b) => b.id === rules.value);
  // The deck's editor, the lobby's too (cards.js): an edited composition, or null (the
  // recommended one).
  const editor = deckEditor({ state: { counts: null }, book, players: () => players.value, options });
  const deckProblem = editor.problem;
  const showDeck = editor.show;

  function showOptions() {
    const b = book();
    fill(options, optionFields(b));
    optionsBox.hidden = !options.children.length;
    fill(
      roomLang,
      b.languages.map((code) => h("option", { value: code, lang: code }, languageName(code))),
    );
    if (b.languages.includes(lang())) roomLang.value = lang();
    players.min = b.min_players;
    players.max = b.max_players;
    night.value = b.timers?.night ?? "";
    day.value = b.timers?.day ?? "";
  }

  rules.addEventListener("change", () => {
    helpLink(rules.value); // (the header's Rules: the rulebook chosen)
    editor.state.counts = null;
    showOptions();
    showDeck();
  });
  // The card editor follows the size: a new size starts from its recommended deck.
  players.addEventListener("input", () => editor.resized());
  mode.addEventListener("change", () => {
    const leader = mode.value === "leader";
    namesRow.hidden = !leader;
    hostRow.hidden = leader;
    tableRow.hidden = leader;
    for (const row of timingRows) row.hidden = leader;
    hostName.required = !leader;
    nameProblem.textContent = namesProblem.textContent = "";
  });
  showOptions();
  showDeck();

  async function submit(event) {
    event.preventDefault();
    for (const p of [problem, nameProblem, namesProblem, deckProblem]) p.textContent = "";
    const b = book();
    const leader = mode.value === "leader";
    if (!leader && !hostName.value.trim()) {
      nameProblem.textContent = t("name_blank");
      hostName.focus();
      return;
    }
    if (leader && !names.value.trim()) {
      namesProblem.textContent = t("names_blank");
      names.focus();
      return;
    }
    const settings = {
      rules: b.id,
      players: Number(players.value),
      lang: roomLang.value,
      mode: mode.value,
      options: readOptions(b),
      pace: Number(pace.value || 0),
      table: !leader && table.checked,
      spectators: spectators.checked,
    };
    const counts = editor.chosen();
    if (counts) settings.composition = counts;
    const timers = readTimers(b);
    if (timers !== undefined) settings.timers = timers;
    if (leader) settings.names = names.value.split("\n").map((n) => n.trim()).filter(Boolean);
    else settings.host_name = hostName.value.trim();
    const answer = await fetch("/api/rooms", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(settings),
    });
    const body = await answer.json();
    if (!answer.ok) {
      // Said next to what it is about: a name, the players' names, else the deck.
      // (by its reason: the words are the reader's language, the English message tells
      // the engine's own reasons apart)
      const reason = body.reason || "";
      const names = ["host_name", "bad_name", "leader_names_count", "names_leader_only"].includes(reason) || (reason === "rules" && /\bnames?\b|reserved/i.test(body.message || ""));
      const cards = ["players_range", "rules", "no_rulebook"].includes(reason);
      const about = names ? (leader ? namesProblem : nameProblem) : cards ? deckProblem : problem;
      about.textContent = refusal(body);
      return;
    }
    keep(body.room, body.host_token, true);
    location.href = `/?room=${body.room}`;
  }

  /** The timers to send: none of them (the rulebook's), the host's own, or "off". A
   * server that gives no rulebook timers takes only the host's own. */
  function readTimers(b) {
    const given = (input) => (input.value === "" ? null : Number(input.value));
    if (b.timers === undefined) {
      const own = {};
      if (given(night) !== null) own.night = given(night);
      if (given(day) !== null) own.day = given(day);
      return own;
    }
    if (noTimers.checked) return "off";
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

  function timing(...rows) {
    timingRows.push(...rows);
    return rows;
  }

  return h(
    "form",
    { class: "card", id: "create", onsubmit: submit, novalidate: true },
    h("h2", {}, t("create_title")),
    h("div", { class: "field" }, h("label", { for: "rules" }, t("rulebook")), rules),
    h("div", { class: "field" }, h("label", { for: "players" }, t("players")), players),
    h("div", { class: "field" }, h("label", { for: "mode" }, t("mode")), mode),
    hostRow,
    tableRow,
    namesRow,
    h("fieldset", {}, h("legend", {}, t("cards")), editor.element),
    h("details", {},
      h("summary", {}, t("more_settings")),
      optionsBox,
      h("div", { class: "field" }, h("label", { for: "room-lang" }, t("room_language")), roomLang),
      ...timing(
        h("div", { class: "field" }, h("label", { for: "timer-night" }, t("timer_night")), night),
        h("div", { class: "field" }, h("label", { for: "timer-day" }, t("timer_day")), day),
        h("div", { class: "field check" }, noTimers, h("label", { for: "no-timers" }, t("no_timers"))),
        h("div", {}, noTimersWarning),
        h("div", { class: "field" }, h("label", { for: "pace" }, t("pace")), pace, h("p", { class: "hint" }, t("pace_help"))),
      ),
      h("div", { class: "field check" }, spectators, h("label", { for: "spectators" }, t("spectators"))),
    ),
    problem,
    h("button", { type: "submit", class: "primary" }, t("create")),
  );
}
