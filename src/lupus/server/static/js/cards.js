// The table a host chooses: the deck (the rulebook's recommended one for the size, or
// his own counts) and the rulebook's options, with the house rule that lifts a
// minimum said in words. One editor for the home page's form (a new room) and the
// lobby's host panel (the next game's table: `settings`), so both read and check alike.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

export function number(id, value, min, max, step = 1) {
  return h("input", { id, name: id, type: "number", value, min, max, step, inputmode: "decimal" });
}

export function total(counts) {
  return Object.values(counts).reduce((sum, n) => sum + (Number(n) || 0), 0);
}

/** Whether a table of `players` with `deck` is below the rulebook's minimum
 * configuration (werewolf's 8 players: 2 Werewolves, 1 Seer, 5 Simple Villagers). */
function belowMinimum(book, players, deck) {
  const minimum = book.minimum;
  if (!minimum || !minimum.lifted_by) return false;
  if (players < minimum.players) return true;
  return Object.entries(minimum.cards || {}).some(([rid, needed]) => ((deck && deck[rid]) || 0) < needed);
}

/** The deck's editor. `state.counts` is the host's own deck, or null for the
 * recommended one (kept by the caller across redraws); `book()` and `players()` read
 * the rulebook and the size chosen now; `options` is the element holding the
 * options' fields (the house rule's box is ticked and held there); `edited` is told
 * of every change. Returns the editor's element and `show()`, which draws it again
 * (after a new size or rulebook). */
export function deckEditor({ state, book, players, options, edited = () => {} }) {
  const ed = {
    state,
    book,
    players,
    options,
    edited,
    deck: h("div", { class: "deck", id: "deck" }),
    houseRule: h("p", { class: "hint house-rule", id: "house-rule", role: "note", hidden: true }),
    problem: h("p", { class: "problem", role: "alert", id: "deck-problem" }),
  };
  const show = () => showDeck(ed);
  /** A new size: the editor starts again from its recommended deck. */
  const resized = () => {
    if (state.counts !== null) state.counts = recommended(ed) || state.counts;
    show();
  };
  /** The deck to send: the host's own (its cards counted), or null (recommended). */
  const chosen = () => (state.counts ? Object.fromEntries(Object.entries(state.counts).filter(([, n]) => n > 0)) : null);
  return { element: ed.deck, problem: ed.problem, show, resized, chosen, state };
}

/** The rulebook's recommended deck for the size chosen now (a copy), or null. */
function recommended(ed) {
  const table = ed.book().compositions[String(ed.players())];
  return table ? { ...table } : null;
}

/** The deck drawn again: the recommended one's counts, or the host's own to edit. */
function showDeck(ed) {
  const state = ed.state;
  const shown = state.counts || recommended(ed);
  const editing = state.counts !== null;
  const summary = h("p", { class: "hint", id: "cards-total" }, shown ? t("cards_total", { count: total(shown) }) : t("no_recommended"));
  const cards = Object.entries(ed.book().roles).map(([rid, role]) => cardRow(ed, rid, role, shown, summary));
  fill(
    ed.deck,
    h("ul", { class: "cards" }, cards),
    summary,
    ed.houseRule,
    ed.problem,
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "deck-edit",
        onclick: () => {
          state.counts = editing ? null : recommended(ed) || {};
          showDeck(ed);
          ed.edited();
        },
      },
      editing ? t("use_recommended") : t("edit_cards"),
    ),
  );
  showHouseRule(ed);
}

/** One role of the deck: its count, or (editing) a field for it. */
function cardRow(ed, rid, role, shown, summary) {
  const state = ed.state;
  const editing = state.counts !== null;
  const count = (shown && shown[rid]) || 0;
  if (!editing && !count) return null;
  const label = `${role.name}`;
  if (!editing) {
    return h("li", { class: "card-role" }, h("span", { class: "count" }, `${count} ×`), " ", label);
  }
  const input = number(`count-${rid}`, count, 0, role.max || 40);
  input.addEventListener("input", () => {
    state.counts[rid] = Number(input.value) || 0;
    summary.textContent = t("cards_total", { count: total(state.counts) });
    showHouseRule(ed);
    ed.edited();
  });
  return h("li", { class: "card-role editing" }, h("label", { for: `count-${rid}` }, label), input);
}

/** Below the rulebook's minimum configuration (werewolf under 8 players), the house
 * rule that lifts it is turned on, and said in plain words by the deck; the host's
 * own choice of it comes back once the table is big enough. */
function showHouseRule(ed) {
  const b = ed.book();
  const houseRule = ed.houseRule;
  const lift = b.minimum?.lifted_by;
  const box = lift ? ed.options.querySelector(`#option-${lift}`) : null;
  const below = belowMinimum(b, Number(ed.players()), ed.state.counts || recommended(ed));
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

/** The rulebook's options as fields, each named by its help text in the reader's
 * language, holding `values` (the room's) or the rulebook's defaults. */
export function optionFields(book, values = {}) {
  return Object.entries(book.option_specs).map(([key, spec]) => optionField(key, spec, key in values ? values[key] : spec.default));
}

function optionField(key, spec, value) {
  const id = `option-${key}`;
  const label = h("label", { for: id }, spec.help || key);
  if (spec.type === "bool") {
    return h("div", { class: "field check" }, h("input", { id, type: "checkbox", checked: value }), label);
  }
  let input;
  if (spec.type === "choice") {
    input = h("select", { id }, spec.choices.map((c) => h("option", { value: c }, spec.labels?.[c] || c)));
    input.value = value;
  } else {
    const step = spec.type === "int" ? 1 : "any";
    input = number(id, value, spec.min ?? "", spec.max ?? "", step);
  }
  return h("div", { class: "field" }, label, input);
}

/** The options chosen in `root`'s fields: those that differ from the rulebook's. */
export function readOptions(book, root = document) {
  const chosen = {};
  for (const [key, spec] of Object.entries(book.option_specs)) {
    const input = root.querySelector(`#option-${key}`);
    if (!input) continue;
    let value;
    if (spec.type === "bool") value = input.checked;
    else if (spec.type === "choice") value = input.value;
    else if (spec.type === "int") value = parseInt(input.value, 10);
    else value = parseFloat(input.value);
    if (value !== spec.default && !Number.isNaN(value)) chosen[key] = value;
  }
  return chosen;
}
