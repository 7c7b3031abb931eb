// A game on screen, drawn from the seat's view only: the role card, the decisions open
// now, and around them the parts every game screen shares (game_parts.js: the news,
// the table, the end). A game leader's page is leader.js. Nothing here knows more than
// the view says.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { dayPanel } from "./day.js";
import { closeButton, endBanner, news, promptButtons, statusBar, tableList } from "./game_parts.js";
import { hostPanel } from "./host.js";
import { leaderScreen } from "./leader.js";
import { lupusburgBoard } from "./lupusburg.js";
import { answersPanel, outcomePanel, roleName } from "./outcome.js";
import { packPanel } from "./pack.js";
import { isDead } from "./table.js";
import { atTable, holdCard, tableNight, tapScreen } from "./table_night.js";

export function gameScreen(page) {
  const view = page.view;
  const leader = page.seat === -1;
  if (leader) return leaderScreen(page);
  // At one table a neighbour sees the screen: the seat's secrets are on a card shown
  // while held, and every living phone shows the same night screen (table_night.js).
  const table = atTable(page);
  const night = tableNight(page);
  return h(
    "section",
    { class: `game phase-${view.phase}${table ? " at-table" : ""}`, "aria-labelledby": "phase-title" },
    statusBar(page),
    standIn(page),
    // (the last phase's outcome stays above the end: the death that ended the game)
    outcomePanel(page),
    view.finished ? endBanner(page) : null,
    table ? null : answersPanel(page),
    page.seat === null ? null : table ? holdCard(page, cardInside(page, true)) : roleCard(page),
    // Lupusburg's table before the choices: its tiles are the buttons (the list stays).
    page.book?.family === "lupusburg" && !night ? lupusburgBoard(page) : null,
    night ? tapScreen(page) : decisions(page),
    dayPanel(page),
    news(page),
    tableList(page),
    page.host && !view.finished ? closeButton(page) : null,
    hostPanel(page),
  );
}

/** A bot plays this seat (its person was away, or the host let a bot play it): say so
 * on the seat's own page, and how it comes back. */
function standIn(page) {
  const seat = page.seat !== null && page.seat >= 0 ? page.lobby?.seats?.[page.seat] : null;
  if (!seat || !seat.person || !seat.bot || page.view.finished) return null;
  return h("p", { class: "card notice stand-in", role: "status", id: "stand-in" }, t(seat.away ? "bot_plays_away" : "bot_plays_host"));
}

/** What the seat holds, as its own part of the frame says (`view.own`, the server's
 * reading of its events): its card now (the last deal or exchange), or in Lupusburg its
 * two characters and chest. */
function holding(page) {
  const own = page.view?.own;
  return { role: own?.cards?.[String(page.seat)] ?? null, houses: ownHouses(own) };
}

/** Lupusburg: the seat's own two characters by house, and its chest's house (null: none
 * told, or another family). */
function ownHouses(own) {
  if (!own?.characters) return null;
  const mine = Object.entries(own.characters).filter(([, told]) => told.how === "own");
  if (!mine.length) return null;
  const chest = Object.entries(own.chests).find(([, told]) => told.how === "own" && told.chest);
  return { characters: Object.fromEntries(mine.map(([house, told]) => [house, told.character])), chest: chest ? Number(chest[0]) : null };
}

/** The seat's card as it is shown: its role and what it does, or its two houses. */
function cardInside(page, shown) {
  if (!shown) return null;
  const { role, houses } = holding(page);
  if (role) {
    const about = page.book?.roles?.[role]?.about;
    return [h("p", { class: "role-name" }, roleName(page, role)), about ? h("p", { class: "about" }, about) : null];
  }
  if (houses) {
    return Object.entries(houses.characters).map(([house, character]) =>
      h(
        "p",
        { class: "house" },
        t(Number(house) % 2 ? "house_second" : "house_first"),
        ": ",
        h("strong", {}, roleName(page, character)),
        Number(house) === houses.chest ? h("span", { class: "tag" }, t("chest")) : null,
      ),
    );
  }
  return h("p", {}, t("no_card_yet"));
}

function roleCard(page) {
  const toggle = h(
    "button",
    {
      type: "button",
      class: "secondary reveal",
      dataset: { focus: "reveal" },
      "aria-expanded": String(page.revealed),
      "aria-controls": "role-card",
      onclick: () => {
        page.revealed = !page.revealed;
        page.render();
      },
    },
    page.revealed ? t("hide_card") : t("show_card"),
  );
  const inside = cardInside(page, page.revealed);
  return h(
    "div",
    { class: `role-card card${page.revealed ? " shown" : ""}` },
    toggle,
    h("div", { id: "role-card", hidden: !page.revealed }, inside),
  );
}

function decisions(page) {
  const view = page.view;
  if (view.finished) return null;
  if (page.seat === null) return h("p", { class: "card waiting" }, t("spectating"));
  // A dead seat's own prompts still reach it (a Captain naming his successor, a
  // Hunter's shot): the game waits for them.
  const dead = isDead(page, page.seat);
  if (dead && !view.prompts.length) return h("p", { class: "card dead" }, t("you_are_dead"));
  if (!view.prompts.length) {
    return h(
      "div",
      { class: "card waiting", role: "status" },
      h("p", {}, view.phase === "night" ? t("night_sleep") : t("waiting_others")),
      mineLine(page),
    );
  }
  return h(
    "div",
    { class: `card decide${dead ? " dead-decide" : ""}`, role: "group", "aria-labelledby": "decide-title" },
    h("h3", { id: "decide-title" }, t("your_turn")),
    dead ? h("p", { class: "hint dead-note" }, t("dead_decide")) : null,
    atTable(page) ? null : packPanel(page),
    view.prompts.map((prompt) => promptButtons(page, prompt)),
    mineLine(page),
  );
}

/** What this seat chose last in the step shown ("You voted Bob"), while it lasts. */
function mineLine(page) {
  const mine = page.mine;
  const view = page.view;
  if (atTable(page) && view.phase === "night") return null; // (on the held card)
  if (!mine || mine.phase !== view.phase || mine.number !== view.number) return null;
  const target = typeof mine.args[0] === "number" ? mine.args[0] : null;
  let text;
  if (mine.verb === "vote" && target !== null) text = t("you_voted", { player: page.name(target) });
  else if (mine.verb === "abstain") text = t("you_abstained");
  else text = t("you_chose", { choice: mine.label });
  return h("p", { class: "mine", role: "status" }, text);
}

