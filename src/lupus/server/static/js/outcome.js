// What happened, on every phone without a click: the morning's news (who died, how as
// far as the rulebook makes it public, the card where it is revealed, or that nobody
// died), the vote's result with its count, and the answers the seat alone was given
// (the Seer's vision, the Detective's). Drawn from the public table (table.js) and the
// seat's own part of the frame (`view.own`); every word from the locale or the rulebook.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { houseName } from "./lupusburg_state.js";
import { gameOver, publicSentence } from "./story.js";
import { playersBySeat, publicTable } from "./table.js";

/** A role's name in the rulebook. */
export function roleName(page, rid) {
  return page.book?.roles?.[rid]?.name || rid;
}

/** A side's name in the rulebook ("the Werewolves"). */
export function sideName(page, faction) {
  const names = page.book?.names || {};
  if (names[faction]) return names[faction];
  const role = Object.values(page.book?.roles || {}).find((r) => r.faction === faction);
  return role?.side || faction;
}

/** A title's name in the rulebook (the Captain, the Burgomaster). */
export function titleName(page, title) {
  return page.book?.names?.[title] || t(`title_${title}`);
}

/** How someone died, in the rulebook's names ("killed by the Werewolves"). */
export function causeText(page, cause) {
  if (!cause) return null;
  const told = page.book?.causes?.[cause];
  if (told) return told;
  const names = page.book?.names || {};
  const known = t(`cause_${cause}`, { pack: names.pack || "", village: names.village || "" });
  return known === `cause_${cause}` ? null : known;
}

function seatName(page, seat) {
  const found = publicTable(page).players.find((p) => p.seat === seat);
  return found ? found.name : page.name(seat);
}

export function votesText(count) {
  return count === 1 ? t("day_votes_one") : t("day_votes", { count });
}

/** The last phase's outcome: a card at the top of the game screen. */
export function outcomePanel(page) {
  const outcome = publicTable(page).outcome;
  if (!outcome || outcome.number < 1 || outcome.phase === "setup") return null;
  const night = outcome.phase === "night";
  const deaths = (outcome.deaths || []).map((death) => {
    // (the sentence of the public event that told the death: `event`, its place)
    const told = publicSentence(page, death.event);
    const how = causeText(page, death.cause);
    return h(
      "li",
      { class: "death", dataset: { seat: String(death.seat) } },
      h("strong", { class: "who" }, seatName(page, death.seat)),
      death.card ? h("span", { class: "tag death-card" }, roleName(page, death.card)) : null,
      h("span", { class: "how" }, told || (how ? t("death_cause", { how }) : t("death_plain"))),
    );
  });
  // (the sentence of the event the outcome names, else the locale's words)
  const said = (place, key) => publicSentence(page, place) || t(key);
  let quiet = null;
  if (!deaths.length && !night && outcome.tie?.length) {
    // (a tie decides nothing yet: a new round, or the Captain, is to come)
    const names = outcome.tie.map((seat) => seatName(page, seat)).join(", ");
    quiet = t("vote_tie", { players: names });
  } else if (!deaths.length) {
    if (night) quiet = outcome.failed_attempt ? said(outcome.failed_event, "failed_attempt") : said(outcome.nobody_event, "nobody_died");
    else quiet = said(outcome.nobody_event, "nobody_eliminated");
  }
  const votes = !night && outcome.votes?.length
    ? h(
        "ul",
        { class: "outcome-votes" },
        outcome.votes
          .filter((row) => row.votes > 0)
          .map((row) =>
            h(
              "li",
              { dataset: { seat: String(row.seat) } },
              // (in Lupusburg the votes go to a character: one of the player's houses)
              h("strong", {}, row.house === undefined || row.house === null ? seatName(page, row.seat) : houseName(seatName(page, row.seat), row.house)),
              ": ",
              votesText(row.votes),
            ),
          ),
      )
    : null;
  return h(
    "div",
    { class: `card outcome outcome-${outcome.phase}`, role: "status", "aria-live": "polite", id: "outcome" },
    h("h3", {}, night ? t("morning_title", { n: outcome.number }) : t("vote_result_title", { n: outcome.number })),
    deaths.length ? h("ul", { class: "deaths" }, deaths) : h("p", { class: "quiet" }, quiet),
    night && deaths.length && outcome.failed_attempt ? h("p", {}, said(outcome.failed_event, "failed_attempt")) : null,
    votes,
  );
}

/** What this seat alone was told about another's card (`view.own.answers`: a card
 * seen, a side learnt): the latest as a card, the earlier ones under it. */
export function answersPanel(page) {
  if (page.seat === null || page.seat < 0) return null;
  const answers = (page.view?.own?.answers || []).map((answer) => ({
    seat: answer.seat,
    text: answer.role !== null ? roleName(page, answer.role) : t("answer_side", { side: sideName(page, answer.side) }),
    number: answer.number,
  }));
  if (!answers.length) return null;
  const latest = answers[answers.length - 1];
  const earlier = answers.slice(0, -1);
  return h(
    "div",
    { class: "card answer", role: "status", id: "answer" },
    h("h3", {}, t("answer_title")),
    h("p", { class: "answer-card" }, h("span", { class: "who" }, seatName(page, latest.seat)), h("strong", { class: "what" }, latest.text)),
    earlier.length
      ? h("ul", { class: "hint earlier" }, earlier.map((a) => h("li", {}, t("answer_line", { player: seatName(page, a.seat), answer: a.text, n: a.number }))))
      : null,
  );
}

/** Lupusburg's one winner, with his points where the game counted them. */
export function soleWinner(page, data) {
  const [seat] = data.winners;
  const points = data.scores?.[String(seat)];
  const player = seatName(page, seat);
  return points === undefined || points === null ? t("lb_wins", { player }) : t("lb_wins_points", { player, points });
}

/** The end: every card, the winners, the replay to share. */
export function endDetails(page) {
  const data = gameOver(page);
  if (!data) return null;
  const winners = new Set(data.winners || []);
  const seats = (page.lobby?.seats || []).map((seat, number) => [seat, number]).filter(([seat]) => seat);
  // Every card is public at the end (`view.public`): a seat's, or his two houses'.
  const bySeat = playersBySeat(page);
  const cardsOf = (number) => {
    const known = bySeat.get(number);
    if (!known) return [];
    if (Array.isArray(known.houses)) return known.houses.map((house) => house.character).filter(Boolean).map((c) => roleName(page, c));
    return known.card ? [roleName(page, known.card)] : [];
  };
  return h(
    "div",
    { class: "end-cards" },
    // (Lupusburg is won by one player, on points once the Werewolf has lost)
    data.scores && winners.size === 1
      ? h("p", { class: "winner-side" }, soleWinner(page, data))
      : data.winner
        ? h("p", { class: "winner-side" }, t("winners_side", { side: sideName(page, data.winner) }))
        : null,
    h(
      "table",
      { class: "all-cards" },
      h("caption", {}, t("every_card")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("leader_player")), h("th", { scope: "col" }, t("leader_card")), h("th", { scope: "col" }, t("result_col")))),
      h(
        "tbody",
        {},
        seats.map(([seat, number]) =>
          h(
            "tr",
            { class: winners.has(number) ? "winner" : "", dataset: { seat: String(number) } },
            h("th", { scope: "row" }, seat.name),
            h("td", {}, cardsOf(number).join(" + ")),
            h("td", {}, winners.has(number) ? t("won") : ""),
          ),
        ),
      ),
    ),
  );
}
