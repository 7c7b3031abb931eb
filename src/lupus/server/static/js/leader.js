// A game-leader room (docs/protocol.md, "Game-leader rooms"): one device, a human
// leader and physical cards. The leader's view holds every event; he enters each
// player's choice as the table points.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { closeButton, endBanner, news, promptButtons, statusBar, tableList } from "./play.js";

export function leaderScreen(page) {
  const view = page.view;
  return h(
    "section",
    { class: `game leader phase-${view.phase}`, "aria-labelledby": "phase-title" },
    statusBar(page),
    view.finished ? endBanner(page) : null,
    view.finished ? null : leaderTable(page),
    news(page),
    tableList(page),
    view.finished ? null : closeButton(page),
  );
}

function leaderTable(page) {
  const view = page.view;
  if (!view.table.length) return h("p", { class: "card waiting" }, t("leader_nobody"));
  return h(
    "div",
    { class: "card decide" },
    h("h3", {}, t("leader_table")),
    view.table.map((entry) =>
      h(
        "div",
        { class: "leader-seat" },
        h("h4", {}, page.name(entry.seat)),
        entry.prompts.map((prompt) => promptButtons(page, prompt, entry.seat)),
      ),
    ),
  );
}
