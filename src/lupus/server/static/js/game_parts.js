// The parts of a game's screen that every kind of room shows: the status bar with its
// countdown and list of players, the buttons that answer a prompt, the news, the table
// of players, the host's button to close a step, and the end. A player's page (play.js)
// and a game leader's (leader.js) are built of them; nothing here knows more than the
// view says.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatControls } from "./host.js";
import { endDetails, roleName, titleName } from "./outcome.js";
import { partners } from "./pack.js";
import { gameOver, publicLines } from "./story.js";
import { publicTable } from "./table.js";
import { atTable, tableNight } from "./table_night.js";

/** The list of players, one tap away at any moment (the button in the status bar). */
function playersSheet(page) {
  return h(
    "div",
    { class: "sheet", id: "players-sheet", role: "dialog", "aria-labelledby": "sheet-title" },
    h(
      "div",
      { class: "sheet-head" },
      h("h3", { id: "sheet-title" }, t("players")),
      h("button", { type: "button", class: "small", id: "players-close", onclick: () => toggleSheet(page) }, t("close")),
    ),
    playerRows(page, false),
  );
}

function toggleSheet(page) {
  page.playersOpen = !page.playersOpen;
  page.render();
}

export function statusBar(page) {
  const view = page.view;
  const title =
    view.phase === "night"
      ? t("phase_night", { n: view.number })
      : view.phase === "day"
        ? t("phase_day", { n: view.number })
        : t("phase_setup");
  const alive = publicTable(page).players.filter((p) => p.alive).length;
  // (the list of players opens under the bar, on every screen of a game)
  return [h(
    "div",
    { class: "status" },
    h("h2", { id: "phase-title" }, view.finished ? t("game_over") : title),
    view.deadline && !view.finished ? countdown(view.deadline - page.skew) : null,
    h(
      "button",
      {
        type: "button",
        class: "small players-button",
        id: "players-button",
        "aria-expanded": String(Boolean(page.playersOpen)),
        "aria-controls": "players-sheet",
        onclick: () => toggleSheet(page),
      },
      t("players_alive", { count: alive }),
    ),
  ), page.playersOpen ? playersSheet(page) : null];
}

/** The time left until `deadline`, on this phone's clock. */
function countdown(deadline) {
  const el = h("span", { class: "countdown", dataset: { deadline: String(deadline) }, role: "timer" });
  tick(el);
  return el;
}

function tick(el) {
  const left = Math.max(0, Math.round(Number(el.dataset.deadline) - Date.now() / 1000));
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  el.textContent = t("time_left", { time: `${minutes}:${seconds}` });
}

setInterval(() => document.querySelectorAll(".countdown").forEach(tick), 1000);

/** A button that answers a prompt with one of its choices (`seat`: a game leader's
 * answer for that seat). */
export function actButton(page, verb, choice, className, seat) {
  const chosen = seat === undefined && chosenNow(page, verb, choice.args);
  // (a partner of the pack is marked among the choices too)
  const mate = seat === undefined && !atTable(page) && choice.args.length === 1 && partners(page).has(choice.args[0]);
  return h(
    "button",
    {
      type: "button",
      class: chosen ? `${className} chosen` : className,
      disabled: page.busy,
      "aria-pressed": chosen ? "true" : null,
      dataset: { verb, args: JSON.stringify(choice.args) },
      onclick: () => page.act(verb, choice.args, seat, choice.label),
    },
    choice.label,
    mate ? h("span", { class: "tag partner-tag" }, t("partner")) : null,
  );
}

/** Whether this choice is the one the seat holds now in a step it may still change
 * (the pack's: `view.pack`). */
function chosenNow(page, verb, args) {
  const pack = page.view?.pack;
  if (!Array.isArray(pack)) return false;
  const own = pack.find((entry) => entry.seat === page.seat);
  return Boolean(own) && own.target !== null && args.length === 1 && args[0] === own.target && verb !== "pass";
}

export function promptButtons(page, prompt, seat) {
  return h(
    "div",
    { class: "choices" },
    prompt.choices.map((choice) => actButton(page, prompt.verb, choice, "choice", seat)),
  );
}

export function news(page) {
  // The phase so far, newest last; the whole story folded under it.
  // (at one table, only what every phone may show: the public lines)
  const lines = atTable(page) ? publicLines(page) : page.lines;
  let start = lines.length;
  while (start > 0 && !lines[start - 1].startsWith("==")) start--;
  const recent = lines.slice(start).filter((line) => line !== "");
  return h(
    "div",
    { class: "news card" },
    h("h3", {}, t("news")),
    h("ul", { class: "lines", "aria-live": "polite" }, recent.map((line) => h("li", {}, line))),
    h(
      "details",
      {
        class: "timeline",
        open: page.view.finished || page.timelineOpen,
        ontoggle: (event) => (page.timelineOpen = event.target.open),
      },
      h("summary", {}, t("timeline")),
      h("ul", { class: "lines" }, lines.map((line) => (line.startsWith("==") ? h("li", { class: "heading" }, line.replace(/^==\s*|\s*==$/g, "")) : line ? h("li", {}, line) : null))),
    ),
  );
}

export function tableList(page) {
  return h("div", { class: "players card" }, h("h3", {}, t("players")), playerRows(page, true));
}

/** Every seat, alive or dead, with its public card and titles; `controls`: the host's
 * buttons for each seat too. */
function playerRows(page, controls) {
  const lobby = page.lobby;
  const bySeat = new Map(publicTable(page).players.map((p) => [p.seat, p]));
  const mates = partners(page);
  // (at one table, partners are on the held card; at night every list reads the same)
  const table = atTable(page);
  const night = tableNight(page);
  return h(
    "ul",
    { class: "seats" },
    lobby.seats.map((seat, number) => {
      if (!seat) return null;
      const known = bySeat.get(number);
      const gone = known ? !known.alive : false;
      return h(
        "li",
        { class: `seat${gone ? " gone" : ""}${number === page.seat && !night ? " you" : ""}`, dataset: { seat: String(number) } },
        h("span", { class: "seat-name" }, seat.name),
        gone ? h("span", { class: "tag dead-tag" }, t("dead")) : null,
        known?.card ? h("span", { class: "tag card-tag" }, roleName(page, known.card)) : null,
        (known?.titles || []).map((title) => h("span", { class: "tag title-tag" }, titleName(page, title))),
        mates.has(number) && !table ? h("span", { class: "tag partner-tag" }, t("partner")) : null,
        number === page.seat && !night ? h("span", { class: "tag" }, t("you")) : null,
        number === lobby.host_seat ? h("span", { class: "tag host-tag" }, t("host")) : null,
        seat.bot ? h("span", { class: "tag" }, t(`bot_${seat.bot}`)) : null,
        !seat.bot && !seat.connected && lobby.mode === "players" ? h("span", { class: "tag muted" }, t("away")) : null,
        controls ? h("span", { class: "controls" }, seatControls(page, seat, number)) : null,
      );
    }),
  );
}

export function closeButton(page) {
  return h(
    "div",
    { class: "host card" },
    h("p", { class: "hint" }, t(page.view.deadline ? "close_help_timed" : "close_help")),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "close-step",
        onclick: () => page.send({ type: "close", state_id: page.view.state_id }).catch(() => {}),
      },
      t("close_step"),
    ),
  );
}

export function endBanner(page) {
  const over = gameOver(page);
  const won = over && page.seat !== null && over.winners.includes(page.seat);
  // (Lupusburg's winner wins alone, on points: no side won or lost)
  const alone = Boolean(over?.scores) && over.winners.length === 1;
  const replay = `${location.origin}/?replay=${encodeURIComponent(page.view.game)}`;
  return h(
    "div",
    { class: "card end", role: "status" },
    h("p", { class: "result" }, over ? t(page.seat === null || page.seat === -1 ? "game_ended" : won ? (alone ? "you_won_alone" : "you_won") : alone ? "you_lost_alone" : "you_lost") : t("game_ended")),
    endDetails(page),
    h("p", {}, h("a", { href: replay, class: "replay-link", id: "replay-link" }, t("replay_link"))),
    h("p", { class: "hint" }, t("replay_share")),
    h("p", {}, h("a", { href: `/api/games/${page.view.game}/scenario`, download: `${page.view.game}.json` }, t("download"))),
    page.host ? h("button", { type: "button", class: "primary", id: "again", onclick: () => page.send({ type: "again" }) }, t("play_again")) : null,
  );
}
