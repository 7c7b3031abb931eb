// At one table, phones replace closed eyes, and a neighbour sees every screen: so at
// each night step every living phone shows the same screen. The same names (every
// living player, or every house standing in Lupusburg), a "Nobody" button, the same
// number of taps (the rulebook's `table.taps` for the step), the same "done" screen,
// the same news (public lines only). What a tap really does is known to its owner
// alone: it is written on his card, which shows only while he holds it pressed (and
// so do his answers, his partners and his private news). A phone with nothing to do
// taps too, and its taps send nothing.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { houseName } from "./lupusburg_state.js";
import { answersPanel } from "./outcome.js";
import { packPanel, partners } from "./pack.js";
import { openStep, privateLinesOfPhase, publicIndex } from "./story.js";
import { isDead, publicTable } from "./table.js";

const PASSIVE = new Set(["pass", "keep", "sleep", "abstain"]);

/** Whether this page is a living player's phone at one table during a game. */
export function atTable(page) {
  return Boolean(page.lobby?.table) && page.seat !== null && page.seat >= 0 && !page.view?.finished;
}

/** Whether the uniform night screen replaces this phone's screen now. */
export function tableNight(page) {
  return atTable(page) && !isDead(page, page.seat) && openStep(page) !== null;
}

/** What a tap names: every living player (village), every house standing (Lupusburg),
 * in seat order: the same list on every phone. */
function targets(page) {
  const table = publicTable(page);
  const found = [];
  for (const player of table.players) {
    if (Array.isArray(player.houses)) {
      for (const house of player.houses) {
        if (house.alive) found.push({ target: house.house, label: houseName(player.name, house.house) });
      }
    } else if (player.alive) found.push({ target: player.seat, label: player.name });
  }
  return found;
}

function tapsOf(page, step) {
  return page.book?.table_taps?.[step.id] || 1;
}

/** How this seat's open prompts answer the taps (its owner's secret): a list of
 * stages, one per tap. A stage maps a target to the choice it makes (`byTarget`) and
 * says what "Nobody" does (`nobody`, or null: nothing). Choices naming one target are
 * tapped on it; a pair (Cupid's) takes two taps; the others (the Witch's healing
 * potion, the Little Girl's spying, the Thief's cards) are laid on the names in order,
 * in a stage of their own before the targeted one. */
export function stagesOf(page) {
  const grid = targets(page).map((entry) => entry.target);
  const onGrid = new Set(grid);
  const aimed = { byTarget: new Map(), nobody: null };
  const others = { byTarget: new Map(), nobody: null, extras: [] };
  let pair = null;
  for (const prompt of page.view.prompts) {
    for (const choice of prompt.choices) {
      const args = choice.args;
      const act = { verb: prompt.verb, args, label: choice.label };
      if (args.length === 2 && args.every((a) => onGrid.has(a))) pair = pair || { verb: prompt.verb, choices: prompt.choices };
      else if (args.length === 1 && onGrid.has(args[0])) {
        if (!aimed.byTarget.has(args[0])) aimed.byTarget.set(args[0], act);
      } else if (args.length === 0 && PASSIVE.has(prompt.verb)) aimed.nobody = aimed.nobody || act;
      else others.extras.push(act);
    }
  }
  const stages = [];
  if (others.extras.length) {
    // A choice about the player the seat was just shown (the Witch's healing potion, on
    // the victim) is tapped on that player; the others on the names in order.
    const shown = shownTarget(page);
    const free = grid.filter((target) => target !== shown);
    others.extras.forEach((act, i) => {
      if (i === 0 && shown !== null && onGrid.has(shown)) others.byTarget.set(shown, act);
      else if (free.length) others.byTarget.set(free.shift(), act);
    });
    // (with nothing aimed, "Nobody" is the prompt's pass: the Little Girl sleeps)
    if (!aimed.byTarget.size) others.nobody = aimed.nobody;
    stages.push(others);
  }
  if (pair) stages.push({ pair, first: true }, { pair, first: false });
  else if (aimed.byTarget.size) stages.push(aimed);
  else if (!others.extras.length && aimed.nobody) stages.push(aimed);
  return stages;
}

/** The player this seat alone was shown at this step (the victim shown to the Witch),
 * or null: the target of the private event told to it since the step's public call
 * (`view.public.step`'s event). */
function shownTarget(page) {
  const start = publicIndex(page, page.view.public?.step?.event);
  for (let i = page.events.length - 1; i > start; i--) {
    const event = page.events[i];
    if (event.audience && event.audience.includes(page.seat) && typeof event.data.target === "number") return event.data.target;
  }
  return null;
}

/** The state of this phone's taps at the step open now (kept on the page). */
function tapsNow(page, step) {
  if (!page.tableTaps || page.tableTaps.key !== step.key) {
    page.tableTaps = { key: step.key, done: 0, stages: null, picked: [] };
  }
  return page.tableTaps;
}

function tap(page, step, target) {
  const state = tapsNow(page, step);
  const total = tapsOf(page, step);
  if (state.done >= total) return;
  // The stages are read once, at the first tap: what each tap means does not move
  // when an earlier tap's answer changes the prompts.
  if (state.stages === null) state.stages = page.view.waiting ? stagesOf(page) : [];
  const stage = state.stages[state.done];
  state.done++;
  state.picked.push(target);
  if (stage) send(page, stage, target, state);
  page.render();
}

function send(page, stage, target, state) {
  let act = null;
  if (stage.pair) {
    if (stage.first || target === null) return;
    const first = state.picked[state.picked.length - 2];
    const found = stage.pair.choices.find((c) => c.args.includes(first) && c.args.includes(target) && first !== target);
    if (found) act = { verb: stage.pair.verb, args: found.args, label: found.label };
  } else if (target === null) act = stage.nobody;
  else act = stage.byTarget.get(target) || null;
  if (act) sendWhenFree(page, act, 40);
}

/** Sends a tap's choice once the previous one is answered (the Witch may tap twice
 * before the first answer comes), if the prompts open then still offer it. */
function sendWhenFree(page, act, tries) {
  if (page.busy) {
    if (tries > 0) setTimeout(() => sendWhenFree(page, act, tries - 1), 100);
    return;
  }
  if (!page.view.waiting) return;
  const same = JSON.stringify(act.args);
  const open = page.view.prompts.some((p) => p.verb === act.verb && p.choices.some((c) => JSON.stringify(c.args) === same));
  if (open) page.act(act.verb, act.args, undefined, act.label);
}

/** The screen every living phone shows at a night step. */
export function tapScreen(page) {
  const step = openStep(page);
  const state = tapsNow(page, step);
  const total = tapsOf(page, step);
  const grid = targets(page);
  const done = state.done >= total;
  return h(
    "div",
    { class: "card decide table-night", role: "group", "aria-labelledby": "decide-title", dataset: { step: step.key, taps: String(total), tapped: String(state.done) } },
    h("h3", { id: "decide-title" }, t("tap_title")),
    done
      ? [
          h("p", { class: "tap-done", role: "status" }, t("tap_done")),
          h("button", { type: "button", class: "secondary", id: "tap-again", onclick: () => again(page, step) }, t("tap_again")),
        ]
      : [
          h("p", { class: "hint" }, total > 1 ? t("tap_count", { n: state.done + 1, of: total }) : t("tap_hint")),
          h(
            "div",
            { class: "choices" },
            grid.map((entry) => h("button", { type: "button", class: "choice", dataset: { tap: String(entry.target) }, onclick: () => tap(page, step, entry.target) }, entry.label)),
            h("button", { type: "button", class: "choice nobody", dataset: { tap: "" }, onclick: () => tap(page, step, null) }, t("tap_nobody")),
          ),
        ],
  );
}

/** Tapping again (every phone may): the pack may still change its mind. */
function again(page, step) {
  page.tableTaps = { key: step.key, done: 0, stages: null, picked: [] };
  page.render();
}

/** The card under the thumb: the seat's secrets, shown only while it is pressed (the
 * same button on every phone, all day and all night). */
export function holdCard(page, inside) {
  const shown = Boolean(page.holding);
  const hold = (on) => {
    if (Boolean(page.holding) === on) return;
    page.holding = on;
    page.render();
  };
  const button = h(
    "button",
    {
      type: "button",
      class: "secondary reveal hold",
      id: "hold-card",
      dataset: { focus: "reveal" },
      "aria-pressed": String(shown),
      onpointerdown: (event) => {
        event.preventDefault();
        hold(true);
      },
      onkeydown: (event) => {
        if (event.key === " " || event.key === "Enter") {
          event.preventDefault();
          hold(true);
        }
      },
      onkeyup: () => hold(false),
      oncontextmenu: (event) => event.preventDefault(),
    },
    t("hold_card"),
  );
  if (!page.holdListener) {
    // (released anywhere: the button is drawn again while it is held)
    page.holdListener = () => hold(false);
    for (const kind of ["pointerup", "pointercancel", "blur"]) window.addEventListener(kind, page.holdListener);
  }
  return h(
    "div",
    { class: `role-card card hold-card${shown ? " shown" : ""}` },
    button,
    shown ? h("div", { id: "role-card" }, inside, secrets(page)) : null,
  );
}

/** What the seat alone knows now: its answers, its partners and their choices, what
 * its taps do at this step, its own news of the phase. */
function secrets(page) {
  const mates = [...partners(page)].map((seat) => page.name(seat));
  const step = tableNight(page) ? openStep(page) : null;
  return [
    answersPanel(page),
    mates.length ? h("p", { class: "partners" }, t("partners_are", { players: mates.join(", ") })) : null,
    packPanel(page),
    step && page.view.waiting ? legend(page, step) : null,
    chosen(page),
    privateLines(page),
  ];
}

/** What the seat chose last in this phase ("You chose: Devour Bob"). */
function chosen(page) {
  const mine = page.mine;
  const view = page.view;
  if (!mine || mine.phase !== view.phase || mine.number !== view.number) return null;
  return h("p", { class: "mine" }, t("you_chose", { choice: mine.label }));
}

function legend(page, step) {
  const state = tapsNow(page, step);
  const stages = state.stages || stagesOf(page);
  const grid = targets(page);
  const label = (target) => grid.find((entry) => entry.target === target)?.label || "";
  const rows = stages.map((stage, i) => {
    let items;
    if (stage.pair) items = [h("li", {}, t(stage.first ? "tap_pair_first" : "tap_pair_second"))];
    else {
      items = [...stage.byTarget.entries()].map(([target, act]) => h("li", {}, t("tap_means", { name: label(target), choice: act.label })));
      if (stage.nobody) items.push(h("li", {}, t("tap_means", { name: t("tap_nobody"), choice: stage.nobody.label })));
    }
    return h("li", {}, h("strong", {}, t("tap_count", { n: i + 1, of: tapsOf(page, step) })), h("ul", {}, items));
  });
  return h("div", { class: "legend" }, h("h4", {}, t("tap_legend")), h("ol", { class: "plain" }, rows));
}

/** The lines told to this seat alone since the phase began (its vision, the victim
 * shown to the Witch...): on its card, never in the news that every phone shows. */
function privateLines(page) {
  const mine = privateLinesOfPhase(page);
  return mine.length ? h("ul", { class: "lines private-lines" }, mine.map((line) => h("li", {}, line))) : null;
}
