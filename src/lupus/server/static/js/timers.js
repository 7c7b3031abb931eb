// The steps' timers: what a room's are (the rulebook's unless its host chose others or
// none), shown in the lobby (where the host may change them until the game starts:
// `timersEditor`), and on the home page's form with the host's fields to change them
// or switch them off. Without timers an absent player stops the game until
// the host closes the step: the page says so in plain words.

import { h } from "./dom.js";
import { refusal, t } from "./i18n.js";

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

/** The timers as the host's panel edits them: seconds as typed (a string, "" for no
 * timer), by night, day and each step the rulebook or the room times. */
function draftOf(page) {
  const timers = page.lobby.timers;
  const steps = {};
  for (const step of Object.keys(page.book?.timers?.steps || {})) steps[step] = "";
  for (const [step, value] of Object.entries(timers?.steps || {})) steps[step] = String(value);
  return {
    shown: shownKey(page),
    dirty: false,
    off: !timed(timers),
    night: timers?.night != null ? String(timers.night) : "",
    day: timers?.day != null ? String(timers.day) : "",
    steps,
    open: false,
  };
}

/** What the draft was made from: made again when that changed and nothing was typed. */
function shownKey(page) {
  return JSON.stringify([page.lobby.timers, Boolean(page.book)]);
}

/** The timers the draft stands for, as `settings` takes them. */
function draftTimers(draft) {
  if (draft.off) return "off";
  const number = (text) => (text.trim() === "" ? null : Number(text));
  const steps = {};
  for (const [step, text] of Object.entries(draft.steps)) {
    if (text.trim() !== "") steps[step] = Number(text);
  }
  return { night: number(draft.night), day: number(draft.day), steps };
}

/** A change of the room's settings; once the timers are changed, what was typed is
 * forgotten (the lobby shows what the room has now). A refusal is told as every host
 * command's (a toast), and the panel is drawn again from what the room still has. */
function sendSettings(page, fields) {
  page
    .send({ type: "settings", ...fields })
    .then(() => {
      if ("timers" in fields) page.timersDraft = null;
      page.toast(t("settings_saved"));
      page.render();
    })
    .catch((error) => {
      page.render();
      // (said by the panel's buttons too, not only in a toast)
      const problem = document.getElementById("settings-problem");
      if (problem && error?.code && error.code !== "disconnected") problem.textContent = refusal(error);
    });
}

function secondsInput(id, value, max, disabled, set) {
  return h("input", {
    id,
    type: "number",
    min: 1,
    max,
    step: "any",
    inputmode: "decimal",
    value,
    disabled,
    oninput: (event) => set(event.target.value),
  });
}

/** The host's panel in the lobby (before the first game): the room's timers to change
 * (night, day, and under "each step" those of the rulebook's steps), "No timers" with
 * its warning, the rulebook's timers again, and whether a bot plays an absent person's
 * seat; sent as `settings`. What he types is kept across the lobby's redraws
 * (`page.timersDraft`) until it is sent. */
export function timersEditor(page) {
  const lobby = page.lobby;
  let draft = page.timersDraft;
  if (!draft || (!draft.dirty && draft.shown !== shownKey(page))) draft = page.timersDraft = draftOf(page);
  const edit = (change) => {
    change(draft);
    draft.dirty = true;
  };
  const off = draft.off;
  const warning = h("p", { class: "warning", id: "settings-warning", role: "note", hidden: !off }, t("no_timers_warning"));
  const night = secondsInput("settings-night", draft.night, 3600, off, (v) => edit((d) => (d.night = v)));
  const day = secondsInput("settings-day", draft.day, 7200, off, (v) => edit((d) => (d.day = v)));
  const stepInputs = Object.keys(draft.steps).map((step) =>
    h(
      "div",
      { class: "field step-timer" },
      h("label", { for: `settings-step-${step}` }, stepName(page, step)),
      secondsInput(`settings-step-${step}`, draft.steps[step], 7200, off, (v) => edit((d) => (d.steps[step] = v))),
    ),
  );
  const noTimers = h("input", {
    id: "settings-no-timers",
    type: "checkbox",
    checked: off,
    onchange: (event) => {
      edit((d) => (d.off = event.target.checked));
      warning.hidden = !draft.off;
      for (const input of [night, day, ...stepInputs.map((row) => row.querySelector("input"))]) input.disabled = draft.off;
    },
  });
  return h(
    "div",
    { class: `card timers editing${timed(lobby.timers) ? "" : " no-timers"}`, id: "timers" },
    h("h3", {}, t("timers_title")),
    h("p", { class: "hint" }, t("settings_help")),
    h("div", { class: "field" }, h("label", { for: "settings-night" }, t("timer_night")), night),
    h("div", { class: "field" }, h("label", { for: "settings-day" }, t("timer_day")), day),
    stepInputs.length
      ? h(
          "details",
          { class: "timer-steps", open: draft.open, ontoggle: (event) => (draft.open = event.target.open) },
          h("summary", {}, t("timers_each_step")),
          stepInputs,
        )
      : null,
    h("div", { class: "field check" }, noTimers, h("label", { for: "settings-no-timers" }, t("no_timers"))),
    warning,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "primary", id: "settings-save", onclick: () => sendSettings(page, { timers: draftTimers(draft) }) }, t("settings_save")),
      h("button", { type: "button", class: "secondary", id: "settings-default", onclick: () => sendSettings(page, { timers: "default" }) }, t("timers_default")),
    ),
    h("p", { class: "problem", role: "alert", id: "settings-problem" }),
    roomSwitches(page),
  );
}

/** The room's switches, each sent at once: a bot plays an absent person's seat,
 * spectators are let in, the finished games may be exported. */
function roomSwitches(page) {
  const lobby = page.lobby;
  return [
    h(
      "div",
      { class: "field check" },
      h("input", {
        id: "settings-absent-bots",
        type: "checkbox",
        checked: lobby.absent_bots,
        onchange: (event) => sendSettings(page, { absent_bots: event.target.checked }),
      }),
      h("label", { for: "settings-absent-bots" }, t("absent_bots")),
    ),
    h(
      "div",
      { class: "field check" },
      h("input", {
        id: "settings-spectators",
        type: "checkbox",
        checked: lobby.spectators,
        onchange: (event) => sendSettings(page, { spectators: event.target.checked }),
      }),
      h("label", { for: "settings-spectators" }, t("spectators")),
    ),
    h(
      "div",
      { class: "field check" },
      h("input", {
        id: "settings-allow-export",
        type: "checkbox",
        checked: lobby.allow_export,
        onchange: (event) => sendSettings(page, { allow_export: event.target.checked }),
      }),
      h("label", { for: "settings-allow-export" }, t("allow_export")),
    ),
  ];
}
