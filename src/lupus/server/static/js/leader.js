// A game-leader room (docs/protocol.md, "Game-leader rooms"): one device, a human
// leader and physical cards. The page is his script: the cards to put in the deck and
// the roles to explain, whom to give which card, then step by step whom to wake, what
// they point at (his taps, staged on the page until he confirms the step, each one
// undoable), what to show them, whom to put back to sleep, and what to read out.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { endBanner, news, statusBar, tableList } from "./game_parts.js";
import { dealTable, deckList } from "./leader_deck.js";
import { recapCard } from "./leader_items.js";
import { follow, leaderState, save } from "./leader_memory.js";
import { stepCard } from "./leader_step.js";
import { nowStart, recapItems } from "./leader_story.js";

export function leaderScreen(page) {
  const view = page.view;
  const state = leaderState(page);
  keepFocus();
  if (!state.dealt && !view.finished) {
    return h(
      "section",
      { class: `game leader phase-${view.phase}`, "aria-labelledby": "phase-title" },
      statusBar(page),
      prepare(page, state),
    );
  }
  // (the script is drawn in the rulebook entry's names: until it is here, nothing is scripted)
  if (!page.book) return h("section", { class: `game leader phase-${view.phase}`, "aria-labelledby": "phase-title" }, statusBar(page), news(page), tableList(page));
  // The server's script (`view.script`): the step under way, and the recap of those
  // since the one this page showed.
  const start = view.finished ? page.events.length : nowStart(page);
  follow(page, state, start);
  const before = recapItems(page, state.prev, start, state.prevSeen ?? state.prev);
  return h(
    "section",
    { class: `game leader phase-${view.phase}`, "aria-labelledby": "phase-title" },
    statusBar(page),
    view.finished ? endBanner(page) : null,
    before.length ? recapCard(page, before) : null,
    view.finished ? null : stepCard(page, state, start),
    h(
      "details",
      { class: "card leader-deck-again" },
      h("summary", {}, t("leader_deck_again")),
      deckList(page),
      dealTable(page),
    ),
    news(page),
    tableList(page),
  );
}

function keepFocus() {
  const key = document.activeElement?.dataset?.focus;
  if (!key) return;
  queueMicrotask(() => {
    const again = [...document.querySelectorAll("[data-focus]")].find((el) => el.dataset.focus === key);
    if (again && !again.disabled) again.focus();
    else document.getElementById("leader-now")?.focus();
  });
}

function prepare(page, state) {
  return h(
    "div",
    { class: "card leader-prepare" },
    h("h2", { id: "leader-now", tabindex: "-1" }, t("leader_prepare")),
    deckList(page),
    h("p", { class: "hint" }, t("leader_deal_hint")),
    dealTable(page),
    h(
      "button",
      {
        type: "button",
        class: "primary",
        id: "leader-begin",
        onclick: () => {
          state.dealt = true;
          save(state);
          page.render();
          document.getElementById("leader-now")?.focus();
        },
      },
      t("leader_dealt"),
    ),
  );
}
