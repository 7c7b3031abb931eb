// The host's table in the lobby (before the first game, and between games after "Play
// again"): the number of players, the deck and the rulebook's options, in the home
// page's own editor (cards.js), sent as `settings`. The server checks them as a new
// room's; a refusal is said here in the reader's words.

import { deckEditor, number, optionFields, readOptions } from "./cards.js";
import { fill, h } from "./dom.js";
import { refusal, t } from "./i18n.js";

/** What the draft was made from: made again when that changed and nothing was typed. */
function shownKey(page) {
  const lobby = page.lobby;
  return JSON.stringify([lobby.players, lobby.composition, lobby.options, Boolean(page.book)]);
}

/** The room's table as the editor starts from it: its deck is the host's own unless it
 * is the recommended one for its size. */
function draftOf(page) {
  const lobby = page.lobby;
  const recommended = page.book?.compositions?.[String(lobby.players)];
  const same = recommended && JSON.stringify(sorted(recommended)) === JSON.stringify(sorted(lobby.composition));
  return {
    shown: shownKey(page),
    dirty: false,
    players: String(lobby.players),
    counts: same ? null : { ...lobby.composition },
    options: { ...lobby.options },
    open: false,
  };
}

function sorted(deck) {
  return Object.entries(deck || {}).filter(([, n]) => n > 0).sort();
}

export function tableEditor(page) {
  const lobby = page.lobby;
  const book = page.book;
  if (!book) return null;
  let draft = page.tableDraft;
  if (!draft || (!draft.dirty && draft.shown !== shownKey(page))) draft = page.tableDraft = draftOf(page);
  const leader = lobby.mode === "leader";
  const edited = () => (draft.dirty = true);
  const players = number("table-players", draft.players, book.min_players, book.max_players);
  const options = h("div", { id: "options" });
  const editor = deckEditor({ state: draft, book: () => book, players: () => draft.players, options, edited });
  players.addEventListener("input", () => {
    draft.players = players.value;
    edited();
    editor.resized();
  });
  fill(options, optionFields(book, draft.options));
  const remember = () => {
    draft.options = readOptions(book, options);
    edited();
  };
  options.addEventListener("change", remember);
  options.addEventListener("input", remember);
  editor.show();
  const problem = h("p", { class: "problem", role: "alert", id: "table-problem" });
  const save = () => {
    problem.textContent = editor.problem.textContent = "";
    const message = { type: "settings", composition: editor.chosen() || "recommended", options: readOptions(book, options) };
    if (!leader) message.players = Number(draft.players);
    page
      .send(message)
      .then(() => {
        page.tableDraft = null;
        page.handDeal = null; // (a game leader's deal by hand is of the deck he had)
        page.toast(t("settings_saved"));
        page.render();
      })
      .catch((error) => {
        if (!error?.code || error.code === "disconnected") return;
        // (said by the editor, after the redraw the lobby's frames may bring)
        page.tableProblem = refusal(error);
        page.render();
      });
  };
  const said = page.tableProblem;
  page.tableProblem = null;
  if (said) problem.textContent = said;
  return h(
    "details",
    { class: "card table-settings", id: "table-settings", open: draft.open || Boolean(said), ontoggle: (event) => (draft.open = event.target.open) },
    h("summary", {}, t("table_settings")),
    h("p", { class: "hint" }, t("table_settings_help")),
    leader ? null : h("div", { class: "field" }, h("label", { for: "table-players" }, t("players")), players),
    h("fieldset", {}, h("legend", {}, t("cards")), editor.element),
    Object.keys(book.option_specs).length ? h("fieldset", {}, h("legend", {}, t("options")), options) : null,
    problem,
    h("div", { class: "actions" }, h("button", { type: "button", class: "primary", id: "table-save", onclick: save }, t("table_save"))),
  );
}
