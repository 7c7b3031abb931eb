// The steps' timers: what a room's are (the rulebook's unless its host chose others or
// none), shown in the lobby, and on the home page's form with the host's fields to
// change them or switch them off. Without timers an absent player stops the game until
// the host closes the step: the page says so in plain words.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Whether `timers` ({night, day, steps}) has any timer at all. */
export function timed(timers) {
  return Boolean(timers) && (timers.night != null || timers.day != null || Object.keys(timers.steps || {}).length > 0);
}

function seconds(value) {
  return t("seconds", { n: Math.round(value * 10) / 10 });
}

/** A step's name: the rulebook's for a role's step (the Seer's), the pack's or the
 * lovers', else the interface's word for it. */
function stepName(page, step) {
  const book = page.book;
  const role = book?.roles?.[step] || book?.roles?.[step.replace(/_/g, "-")];
  if (role) return role.name;
  if (step === "werewolves" && book?.names?.pack) return book.names.pack;
  if (book?.names?.[step]) return book.names[step];
  const word = t(`step_${step}`);
  return word === `step_${step}` ? step : word;
}

/** The timers as lines of words. */
export function timerLines(page, timers) {
  if (!timed(timers)) return [];
  const lines = [];
  if (timers.night != null) lines.push(t("timers_night", { time: seconds(timers.night) }));
  if (timers.day != null) lines.push(t("timers_day", { time: seconds(timers.day) }));
  for (const [step, value] of Object.entries(timers.steps || {})) {
    lines.push(t("timers_step", { step: stepName(page, step), time: seconds(value) }));
  }
  return lines;
}

/** The lobby's card: the room's timers, or the warning that it has none. */
export function timersCard(page) {
  const timers = page.lobby?.timers;
  if (timers === undefined) return null;
  const on = timed(timers);
  const lines = timerLines(page, timers);
  const general = (timers?.night != null ? 1 : 0) + (timers?.day != null ? 1 : 0);
  return h(
    "div",
    { class: `card timers${on ? "" : " no-timers"}`, id: "timers" },
    h("h3", {}, t("timers_title")),
    on ? h("ul", { class: "timer-lines" }, lines.slice(0, general).map((line) => h("li", {}, line))) : null,
    on && lines.length > general
      ? h(
          "details",
          { class: "timer-steps" },
          h("summary", {}, t("timers_steps", { count: lines.length - general })),
          h("ul", { class: "timer-lines" }, lines.slice(general).map((line) => h("li", {}, line))),
        )
      : null,
    on ? null : h("p", { class: "warning", role: "note" }, t("no_timers_warning")),
    page.lobby.absent_bots ? h("p", { class: "hint" }, t("absent_bots_on")) : null,
  );
}
