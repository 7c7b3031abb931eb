// Lupusburg's end (lupusburg.js): every player's score and its parts when the Werewolf
// lost, and over a match the room's games added up.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./lupusburg_icons.js";
import { burgomasterTitle } from "./lupusburg_state.js";
import { roleName } from "./outcome.js";

/** The end: every player's score and its parts (when the Werewolf lost). */
export function scores(page, state) {
  const over = state.over;
  const wolfHouse = Object.entries(over.characters).find(([, c]) => c === "werewolf");
  const wolf = wolfHouse ? Math.floor(Number(wolfHouse[0]) / 2) : null;
  const order = Object.keys(over.scores)
    .map(Number)
    .sort((a, b) => over.scores[b] - over.scores[a] || over.winners.includes(b) - over.winners.includes(a) || a - b);
  const who = { werewolf: wolf === null ? "?" : page.name(wolf), role: roleName(page, "werewolf") };
  const reason = over.reason === "werewolf_even" ? t("lb_reason_even", who) : t("lb_reason_lynched", who);
  return h(
    "div",
    { class: "lb-scores", role: "region", "aria-labelledby": "lb-scores-title" },
    h("h3", { id: "lb-scores-title" }, t("lb_scores")),
    h("p", {}, reason),
    over.tie_break ? h("p", { class: "hint" }, t("lb_tie_break", { title: burgomasterTitle(page) })) : null,
    h(
      "table",
      { class: "lb-score-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("players")), h("th", { scope: "col" }, t("lb_points")))),
      h(
        "tbody",
        {},
        order.map((seat) => {
          const parts = over.parts?.[seat];
          return h(
            "tr",
            { dataset: { seat: String(seat), score: String(over.scores[seat]) }, class: over.winners.includes(seat) ? "winner" : "" },
            h(
              "th",
              { scope: "row" },
              over.winners.includes(seat) ? icon("star") : null,
              page.name(seat),
              over.winners.includes(seat) ? h("span", { class: "tag lb-winner" }, t("lb_winner")) : null,
              seat === wolf ? h("span", { class: "tag" }, roleName(page, "werewolf")) : null,
              parts ? h("small", { class: "lb-parts" }, t("lb_parts", parts)) : null,
            ),
            h("td", { class: "lb-score" }, String(over.scores[seat])),
          );
        }),
      ),
    ),
  );
}

/** Over a match: the scores of this room's finished games added up (the lobby's
 * `results`; a winning Werewolf scores as many points as there are players). */
export function match(page, state, games) {
  const ids = Object.keys(games);
  if (!ids.length) return null;
  const totals = {};
  for (const id of ids) for (const [seat, points] of Object.entries(games[id].points)) totals[seat] = (totals[seat] || 0) + points;
  const order = Object.keys(totals)
    .map(Number)
    .sort((a, b) => totals[b] - totals[a] || a - b);
  const body = [
    h("p", {}, t("lb_match_seen", { seen: ids.length })),
    h(
      "table",
      { class: "lb-score-table lb-match-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("players")), h("th", { scope: "col" }, t("lb_total")))),
      h(
        "tbody",
        {},
        order.map((seat) =>
          h("tr", { dataset: { seat: String(seat), total: String(totals[seat]) } }, h("th", { scope: "row" }, page.name(seat)), h("td", { class: "lb-score" }, String(totals[seat]))),
        ),
      ),
    ),
    h("p", { class: "hint" }, t("lb_match_rule", { role: roleName(page, "werewolf") })),
  ];
  if (state.over) return h("div", { class: "lb-match" }, h("h3", {}, t("lb_match")), body);
  return h("details", { class: "lb-match" }, h("summary", {}, t("lb_match")), body);
}
