// The home page: join a room by its code, or open one (docs/protocol.md, POST /api/rooms).

import { fill, h } from "./dom.js";
import { helpLink } from "./help.js";
import { lang, languageName, t } from "./i18n.js";
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

function number(id, value, min, max, step = 1) {
  return h("input", { id, name: id, type: "number", value, min, max, step, inputmode: "decimal" });
}

/** Whether a table of `players` with `deck` is below the rulebook's minimum
 * configuration (werewolf's 8 players: 2 Werewolves, 1 Seer, 5 Simple Villagers). */
function belowMinimum(book, players, deck) {
  const minimum = book.minimum;
  if (!minimum || !minimum.lifted_by) return false;
  if (players < minimum.players) return true;
  return Object.entries(minimum.cards || {}).some(([rid, needed]) => ((deck && deck[rid]) || 0) < needed);
}

function createSection(books) {
  const problem = h("p", { class: "problem", role: "alert" });
  // A refusal is told next to the field it is about (the name, the players' names, the
  // deck), not only at the bottom of the form.
  const nameProblem = h("p", { class: "problem", role: "alert", id: "host-name-problem" });
  const namesProblem = h("p", { class: "problem", role: "alert", id: "names-problem" });
  const deckProblem = h("p", { class: "problem", role: "alert", id: "deck-problem" });
  const houseRule = h("p", { class: "hint house-rule", id: "house-rule", role: "note", hidden: true });
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
  const deck = h("div", { class: "deck", id: "deck" });
  const options = h("div", { id: "options" });
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
  let counts = null; // an edited composition, or null: the recommended one

  const book = () => books.find((b) => b.id === rules.value);

  function recommended() {
    const table = book().compositions[String(players.value)];
    return table ? { ...table } : null;
  }

  function showDeck() {
    const shown = counts || recommended();
    const editing = counts !== null;
    const b = book();
    const cards = Object.entries(b.roles).map(([rid, role]) => {
      const count = (shown && shown[rid]) || 0;
      if (!editing && !count) return null;
      const label = `${role.name}`;
      if (!editing) {
        return h("li", { class: "card-role" }, h("span", { class: "count" }, `${count} ×`), " ", label);
      }
      const input = number(`count-${rid}`, count, 0, role.max || 40);
      input.addEventListener("input", () => {
        counts[rid] = Number(input.value) || 0;
        summary.textContent = t("cards_total", { count: total(counts) });
        showHouseRule();
      });
      return h("li", { class: "card-role editing" }, h("label", { for: `count-${rid}` }, label), input);
    });
    const summary = h("p", { class: "hint", id: "cards-total" }, shown ? t("cards_total", { count: total(shown) }) : t("no_recommended"));
    fill(
      deck,
      h("ul", { class: "cards" }, cards),
      summary,
      houseRule,
      deckProblem,
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          onclick: () => {
            counts = editing ? null : recommended() || {};
            showDeck();
          },
        },
        editing ? t("use_recommended") : t("edit_cards"),
      ),
    );
    showHouseRule();
  }

  /** Below the rulebook's minimum configuration (werewolf under 8 players), the house
   * rule that lifts it is turned on, and said in plain words by the deck; the host's
   * own choice of it comes back once the table is big enough. */
  function showHouseRule() {
    const b = book();
    const lift = b.minimum?.lifted_by;
    const box = lift ? document.getElementById(`option-${lift}`) || options.querySelector(`#option-${lift}`) : null;
    const below = belowMinimum(b, Number(players.value), counts || recommended());
    houseRule.hidden = !below;
    if (below) {
      houseRule.textContent = t("house_rule_lifted", { players: b.minimum.players, rule: b.minimum.rule });
    }
    if (!box) return;
    if (below && !box.disabled) {
      box.dataset.chosen = box.checked ? "1" : "";
      box.checked = true;
      box.disabled = true;
    } else if (!below && box.disabled) {
      box.checked = box.dataset.chosen === "1";
      box.disabled = false;
    }
  }

  function showOptions() {
    const b = book();
    fill(
      options,
      Object.entries(b.option_specs).map(([key, spec]) => optionField(key, spec)),
    );
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
    counts = null;
    showOptions();
    showDeck();
  });
  // The card editor follows the size: a new size starts from its recommended deck.
  players.addEventListener("input", () => {
    if (counts !== null) counts = recommended() || counts;
    showDeck();
  });
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
    if (counts) settings.composition = Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
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
      const message = body.message || t("refused");
      const about = /\bnames?\b/i.test(message) ? (leader ? namesProblem : nameProblem) : /card|composition|deck|minimum|role/i.test(message) ? deckProblem : problem;
      about.textContent = message;
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
    h("fieldset", {}, h("legend", {}, t("cards")), deck),
    h("details", {},
      h("summary", {}, t("more_settings")),
      h("fieldset", {}, h("legend", {}, t("options")), options),
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

function total(counts) {
  return Object.values(counts).reduce((sum, n) => sum + (Number(n) || 0), 0);
}

function optionField(key, spec) {
  // A rulebook's option is named by its help text, in the reader's language.
  const id = `option-${key}`;
  const label = h("label", { for: id }, spec.help || key);
  if (spec.type === "bool") {
    return h("div", { class: "field check" }, h("input", { id, type: "checkbox", checked: spec.default }), label);
  }
  let input;
  if (spec.type === "choice") {
    input = h("select", { id }, spec.choices.map((c) => h("option", { value: c }, c)));
    input.value = spec.default;
  } else {
    const step = spec.type === "int" ? 1 : "any";
    input = number(id, spec.default, spec.min ?? "", spec.max ?? "", step);
  }
  return h("div", { class: "field" }, label, input);
}

function readOptions(book) {
  const chosen = {};
  for (const [key, spec] of Object.entries(book.option_specs)) {
    const input = document.getElementById(`option-${key}`);
    let value;
    if (spec.type === "bool") value = input.checked;
    else if (spec.type === "choice") value = input.value;
    else if (spec.type === "int") value = parseInt(input.value, 10);
    else value = parseFloat(input.value);
    if (value !== spec.default && !Number.isNaN(value)) chosen[key] = value;
  }
  return chosen;
}
