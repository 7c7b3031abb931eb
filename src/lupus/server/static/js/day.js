// The day's vote under way, as the public table tells it (`view.public.step`): its live
// counts (only ballots the rules make public are its entries), the nominations, the
// round; who is Captain is the table's too. A secret ballot shows nothing: its ballots
// are no entries.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { holderOf } from "./table.js";

const CAPTAIN = "captain"; // the title's id in `view.public` (a Captain's ballot counts twice)

/** Who holds the Captain's title now (`view.public`), or null. */
function captainOf(page) {
  return holderOf(page, CAPTAIN);
}

/** The vote or the nominations under way (`view.public.step` with entries), or null. */
function openBallot(page) {
  const step = page.view.public?.step;
  return step && step.vote ? step : null;
}

export function dayPanel(page) {
  if (page.view.finished) return null;
  const step = openBallot(page);
  // (the view's own phase: a vote of the day is over once the night falls)
  if (!step || step.phase !== page.view.phase) return null;
  if (step.vote === "nominations") return nominations(page, step.entries);
  // Each voter's latest ballot counts (a changed vote replaced the earlier one).
  const ballots = new Map(step.entries.map((entry) => [entry.seat, entry.target]));
  const counts = new Map();
  let abstained = 0;
  for (const [voter, target] of ballots) {
    if (target === null) abstained++;
    else counts.set(target, [...(counts.get(target) || []), voter]);
  }
  // (in the day's vote the Captain's ballot counts twice, as the result will)
  const captain = step.vote === "counted" ? captainOf(page) : null;
  const weight = (voters) => voters.reduce((sum, voter) => sum + (voter === captain ? 2 : 1), 0);
  const title =
    step.vote === "other"
      ? t("day_election", { round: step.round })
      : t("day_vote", { round: step.round ?? 1 });
  const rows = [...counts.entries()].sort((a, b) => weight(b[1]) - weight(a[1]));
  return h(
    "div",
    { class: "card tally", role: "status", "aria-live": "polite" },
    h("h3", {}, title),
    step.needed ? h("p", { class: "hint" }, t("day_needed", { count: step.needed })) : null,
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

function nominations(page, entries) {
  const by = new Map(); // nominee -> nominators (a withdrawn nomination is no entry)
  for (const { seat, target } of entries) by.set(target, [...(by.get(target) || []), seat]);
  const rows = [...by.entries()];
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
