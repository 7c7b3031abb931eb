// Before a game led with cards (leader.js): the deck in the rulebook's order, each role
// to explain, each side's count, and the deal, whom to give which card; and the names
// the leader's page shows players by (with their cards, once dealt).

import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { cardsHeld, housesHeld } from "./leader_story.js";
import { roleName } from "./outcome.js";

export function seatName(page, seat) {
  return page.name(seat);
}

export function list(names) {
  try {
    return new Intl.ListFormat(lang(), { type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

export function withCards(page, seats) {
  const held = cardsHeld(page);
  return list(seats.map((seat) => (held.has(seat) ? t("leader_seat_card", { player: seatName(page, seat), role: roleName(page, held.get(seat)) }) : seatName(page, seat))));
}

/** The deck, in the rulebook's order of its roles: the lobby's, which is the game's
 * while it is played (the settings change only between games). */
function composition(page) {
  const deck = page.lobby.composition;
  const order = Object.keys(page.book?.roles || {});
  const rank = (rid) => (order.includes(rid) ? order.indexOf(rid) : order.length);
  return Object.fromEntries(Object.entries(deck).sort((a, b) => rank(a[0]) - rank(b[0])));
}

export function deckList(page) {
  const book = page.book;
  const cards = Object.entries(composition(page));
  const sides = new Map();
  for (const [rid, count] of cards) {
    const side = book?.roles?.[rid]?.side;
    if (side) sides.set(side, (sides.get(side) || 0) + count);
  }
  return h(
    "div",
    { class: "leader-deck" },
    h("h3", {}, t("leader_deck")),
    h(
      "ul",
      { class: "cards" },
      cards.map(([rid, count]) =>
        h(
          "li",
          { class: "card-role" },
          h("span", { class: "count" }, `${count} ×`),
          " ",
          h("strong", {}, roleName(page, rid)),
          book?.roles?.[rid]?.about ? h("span", { class: "about" }, ` — ${book.roles[rid].about}`) : null,
        ),
      ),
    ),
    h("p", { class: "hint" }, t("leader_explain")),
    sides.size
      ? h(
          "p",
          { class: "leader-sides" },
          t("leader_sides"),
          " ",
          list([...sides].map(([side, count]) => t("leader_side_count", { side, count }))),
        )
      : null,
  );
}

export function dealTable(page) {
  const held = cardsHeld(page);
  const houses = housesHeld(page);
  const dealt = (number) => {
    if (held.has(number)) return roleName(page, held.get(number));
    const mine = houses.get(number);
    if (!mine) return "?";
    const [first, second] = mine.characters.map((rid) => roleName(page, rid));
    return t("leader_houses", { first, second, chest: mine.chest });
  };
  return h(
    "div",
    { class: "leader-deal" },
    h("h3", { id: "deal-title" }, t("leader_deal")),
    h(
      "table",
      { class: "deal", "aria-labelledby": "deal-title" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("leader_player")), h("th", { scope: "col" }, t("leader_card")))),
      h(
        "tbody",
        {},
        page.lobby.seats.map((seat, number) =>
          h("tr", {}, h("th", { scope: "row" }, seatName(page, number)), h("td", {}, dealt(number))),
        ),
      ),
    ),
  );
}
