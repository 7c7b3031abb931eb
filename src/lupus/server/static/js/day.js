// The day's vote under way, from the public events alone: its live counts (only ballots
// the rules make public reach the view), the nominations, the round; who is Captain is
// the public table's (`view.public`). A secret ballot shows nothing: its events are not in
// the view.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { holderOf } from "./table.js";

const OPENS = new Set(["vote_opens", "election", "banishment_opens", "nominations_open"]);
const CAPTAIN = "captain"; // the title's id in `view.public` (a Captain's ballot counts twice)
const CLOSES = new Set(["tally", "no_elimination", "night", "captain", "nominees", "no_nominations"]);

/** Who holds the Captain's title now (`view.public`), or null. */
function captainOf(page) {
  return holderOf(page, CAPTAIN);
}

/** The open ballot or nominations: the last opening event with nothing closing it. */
function openBallot(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const kind = events[i].kind;
    if (OPENS.has(kind)) return i;
    if (CLOSES.has(kind)) return -1;
  }
  return -1;
}

export function dayPanel(page) {
  if (page.view.phase !== "day" || page.view.finished) return null;
  const events = page.events;
  const start = openBallot(events);
  if (start < 0) return null;
  const opening = events[start];
  const later = events.slice(start + 1).filter((event) => event.audience === null);
  if (opening.kind === "nominations_open") return nominations(page, later);
  // Each voter's latest ballot counts (a changed vote replaces the earlier one).
  const ballots = new Map();
  for (const event of later) if (event.kind === "ballot") ballots.set(event.data.player, event.data.target);
  const counts = new Map();
  let abstained = 0;
  for (const [voter, target] of ballots) {
    if (target === null) abstained++;
    else counts.set(target, [...(counts.get(target) || []), voter]);
  }
  // (in the day's vote the Captain's ballot counts twice, as the result will)
  const captain = opening.kind === "vote_opens" ? captainOf(page) : null;
  const weight = (voters) => voters.reduce((sum, voter) => sum + (voter === captain ? 2 : 1), 0);
  const title =
    opening.kind === "election"
      ? t("day_election", { round: opening.data.round })
      : t("day_vote", { round: opening.data.round ?? 1 });
  const rows = [...counts.entries()].sort((a, b) => weight(b[1]) - weight(a[1]));
  return h(
    "div",
    { class: "card tally", role: "status", "aria-live": "polite" },
    h("h3", {}, title),
    opening.data.needed ? h("p", { class: "hint" }, t("day_needed", { count: opening.data.needed })) : null,
    rows.length
      ? h(
          "ul",
          { class: "counts" },
          rows.map(([target, voters]) =>
            h(
              "li",
              {},
              h("strong", {}, page.name(target)),
              ": ",
              weight(voters) === 1 ? t("day_votes_one") : t("day_votes", { count: weight(voters) }),
              h("span", { class: "hint" }, ` (${voters.map((v) => (v === captain ? t("day_double", { player: page.name(v) }) : page.name(v))).join(", ")})`),
            ),
          ),
        )
      : h("p", { class: "hint" }, t("day_no_votes")),
    abstained ? h("p", { class: "hint" }, t("day_abstained", { count: abstained })) : null,
    ballots.has(page.seat)
      ? h(
          "p",
          { class: "mine", id: "my-ballot" },
          ballots.get(page.seat) === null ? t("you_abstained") : t("you_voted", { player: page.name(ballots.get(page.seat)) }),
        )
      : null,
  );
}

function nominations(page, later) {
  const by = new Map(); // nominee -> nominators
  for (const event of later) {
    const { player, target } = event.data;
    if (event.kind === "nomination") by.set(target, [...(by.get(target) || []), player]);
    if (event.kind === "withdrawal") by.set(target, (by.get(target) || []).filter((p) => p !== player));
  }
  const rows = [...by.entries()].filter(([, who]) => who.length);
  return h(
    "div",
    { class: "card tally", role: "status", "aria-live": "polite" },
    h("h3", {}, t("day_nominations")),
    rows.length
      ? h(
          "ul",
          { class: "counts" },
          rows.map(([nominee, who]) =>
            h("li", {}, h("strong", {}, page.name(nominee)), h("span", { class: "hint" }, ` (${who.map((p) => page.name(p)).join(", ")})`)),
          ),
        )
      : h("p", { class: "hint" }, t("day_no_nominations")),
  );
}
