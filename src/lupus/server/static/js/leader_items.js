// A leader's script on screen (leader.js): the server's items (`view.script`) as a list, what
// to read out, whom to show what (the Detective's thumb, the Seer's card, the victim),
// whom to put back to sleep, what was noted.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { list, seatName, withCards } from "./leader_deck.js";
import { roleName } from "./outcome.js";

export function recapCard(page, items) {
  return h(
    "div",
    { class: "card leader-recap", role: "region", "aria-labelledby": "recap-title" },
    h("h3", { id: "recap-title" }, t("leader_recap")),
    itemList(page, items),
  );
}

/** Script items (`view.script`, leader_story.js) as a list: what to read out (what
 * follows on is read in one go), show, note. */
export function itemList(page, items) {
  const grouped = [];
  for (const item of items) {
    const last = grouped[grouped.length - 1];
    if (item.kind === "read" && last?.kind === "read") last.texts.push(item.text);
    else grouped.push(item.kind === "read" ? { kind: "read", texts: [item.text] } : item);
  }
  return h(
    "ol",
    { class: "leader-script" },
    grouped.map((item) => {
      switch (item.kind) {
        case "read":
          return h(
            "li",
            { class: "leader-read" },
            h("span", { class: "leader-label" }, t("leader_read")),
            item.texts.map((text) => h("span", { class: "leader-said" }, h("q", {}, text))),
          );
        case "show":
          return h(
            "li",
            { class: "leader-show" },
            h("span", { class: "leader-label" }, t("leader_show", { players: withCards(page, item.seats) })),
            " ",
            shown(page, item),
          );
        case "sleep":
          return h(
            "li",
            { class: "leader-sleep" },
            h("span", { class: "leader-label" }, t("leader_sleep")),
            " ",
            item.seats.length ? t("leader_step_seats", { step: stepName(page, item), players: list(item.seats.map((s) => seatName(page, s))) }) : stepName(page, item),
          );
        case "private":
          return h("li", { class: "leader-private" }, h("span", { class: "leader-label" }, t("leader_for_you")), " ", item.text);
        default:
          return h("li", { class: "leader-noted" }, item.text);
      }
    }),
  );
}

/** What to show a player: the Detective's thumb, the Seer's card, the victim... with
 * the rulebook's names; anything else as the sentence the player is told. What an
 * event shows is the rulebook's (`shows` of its entry in `GET /api/rulebooks`, each
 * kind's declaration): the page names no kind. */
function shown(page, item) {
  const event = page.events[item.event];
  const data = event.data;
  switch (page.book?.shows?.[event.kind]) {
    case "side": {
      // Thumbs up for the village's side, down for the other (the maffia seed).
      const village = page.book?.roles?.villager?.faction;
      const up = village ? data.side === village : true;
      return h(
        "span",
        { class: `leader-thumb ${up ? "up" : "down"}` },
        h("span", { class: "leader-thumb-icon", "aria-hidden": "true" }, up ? "▲" : "▼"),
        " ",
        h("strong", {}, t(up ? "leader_thumb_up" : "leader_thumb_down")),
        " — ",
        t("leader_side_of", { player: seatName(page, data.player), side: sideName(page, data.side) }),
      );
    }
    case "card":
      return h("span", {}, t("leader_card_of", { player: seatName(page, data.player) }), " ", h("strong", { class: "leader-card" }, roleName(page, data.role)));
    case "victim":
      return data.target === null || data.target === undefined
        ? h("strong", {}, t("leader_no_victim"))
        : h("span", {}, t("leader_victim"), " ", h("strong", {}, seatName(page, data.target)));
    case "pointed":
      return data.target === null || data.target === undefined
        ? h("strong", {}, t("leader_no_victim"))
        : h("span", {}, t("leader_point_victim", { player: seatName(page, data.target), pack: page.book?.names?.pack || "" }));
    default:
      return h("span", {}, item.text);
  }
}

function sideName(page, faction) {
  const names = page.book?.names || {};
  return names[`faction.${faction}`] || names[faction] || faction;
}

/** A sleep's night step by name: its card's (the card it calls, as the server says),
 * else the rulebook's name for it (a pack, the lovers). */
function stepName(page, item) {
  const book = page.book;
  const { step, card } = item;
  return book?.roles?.[step]?.name || book?.roles?.[card]?.name || book?.names?.[step] || book?.names?.[card] || step;
}
