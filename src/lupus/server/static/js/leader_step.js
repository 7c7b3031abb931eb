// The step a game leader runs now (leader.js): the call to read, whom to wake, each
// seat's choices as buttons (his taps, staged until he confirms the step, each one
// undoable), the votes counted so far, and the confirmation that sends them.

import { h } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { list, seatName, withCards } from "./leader_deck.js";
import { itemList } from "./leader_items.js";
import { save } from "./leader_memory.js";
import { cardsHeld, nowItems, nowStart } from "./leader_story.js";
import { roleName } from "./outcome.js";

export function stepCard(page, state, start) {
  const view = page.view;
  const stage = state.stage;
  if (stage.start !== start) {
    stage.start = start;
    stage.entries.clear();
  }
  prune(view, stage);
  if (!state.sending) {
    state.seen = page.events.length;
    save(state);
  }
  const items = nowItems(page);
  // The call that opens the step first, then whom to wake, then what to show them.
  const calls = items.findIndex((item) => item.kind !== "read");
  const call = calls < 0 ? items : items.slice(0, calls);
  const rest = calls < 0 ? [] : items.slice(calls);
  const night = view.phase === "night";
  const seats = view.table.map((entry) => entry.seat);
  const missing = seats.filter((seat) => !stage.entries.has(seat));
  const body = [h("h3", { id: "leader-now", tabindex: "-1" }, t("leader_now")), call.length ? itemList(page, call) : null];
  if (night && seats.length) {
    body.push(h("p", { class: "leader-wake" }, h("span", { class: "leader-label" }, t("leader_wake")), " ", withCards(page, seats)));
  }
  if (rest.length) body.push(itemList(page, rest));
  if (!view.table.length) {
    body.push(h("p", { class: "waiting" }, t("leader_nobody")));
  } else {
    body.push(h("p", { class: "hint" }, t("leader_tap_help")));
    for (const entry of view.table) body.push(seatChoices(page, state, entry, night));
    body.push(tally(page, state));
  }
  body.push(entries(page, state));
  if (view.table.length && missing.length) {
    body.push(h("p", { class: "hint leader-missing" }, t("leader_missing", { players: list(missing.map((s) => seatName(page, s))) })));
  }
  body.push(h("p", { class: "problem", role: "alert", id: "leader-problem" }, state.problem));
  body.push(
    h(
      "button",
      {
        type: "button",
        class: "primary",
        id: "leader-done",
        disabled: state.sending,
        dataset: { focus: "done" },
        onclick: () => confirmStep(page, state, start),
      },
      state.sending ? t("leader_sending") : t("leader_done"),
    ),
  );
  return h("div", { class: "card decide leader-step", role: "region", "aria-labelledby": "leader-now", "aria-busy": String(state.sending) }, body);
}

/** Entries that are no longer among the table's choices (the step changed) go. */
function prune(view, stage) {
  for (const [seat, entry] of stage.entries) {
    const open = view.table.find((row) => row.seat === seat);
    const legal = open?.prompts.some((prompt) => prompt.verb === entry.verb && prompt.choices.some((choice) => same(choice.args, entry.args)));
    if (!legal) stage.entries.delete(seat);
  }
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function seatChoices(page, state, entry, night) {
  const held = cardsHeld(page);
  const staged = state.stage.entries.get(entry.seat);
  const legend = night && held.has(entry.seat)
    ? t("leader_seat_card", { player: seatName(page, entry.seat), role: roleName(page, held.get(entry.seat)) })
    : seatName(page, entry.seat);
  return h(
    "fieldset",
    { class: `leader-seat${staged ? " entered" : ""}`, dataset: { seat: String(entry.seat) } },
    h("legend", {}, legend, staged ? h("span", { class: "tag" }, t("leader_entered")) : null),
    entry.prompts.map((prompt) => {
      // A choice of one player shows his name alone (the whole label for screen
      // readers), under the prompt's words: the day's many choices fit a phone.
      const named = prompt.choices.length > 1 && prompt.choices.every((choice) => pointsAt(page, choice));
      return [
        named ? h("p", { class: "leader-verb", "aria-hidden": "true" }, prompt.choices[0].label.replace(seatName(page, prompt.choices[0].args[0]), "…")) : null,
        h(
        "div",
        { class: `choices${named ? " leader-names" : ""}` },
        prompt.choices.map((choice) => {
          const chosen = Boolean(staged && staged.verb === prompt.verb && same(staged.args, choice.args));
          const text = named ? seatName(page, choice.args[0]) : choice.label;
          return h(
            "button",
            {
              type: "button",
              class: `choice${chosen ? " chosen" : ""}`,
              "aria-pressed": String(chosen),
              "aria-label": named ? choice.label : null,
              disabled: state.sending,
              dataset: { verb: prompt.verb, args: JSON.stringify(choice.args), seat: String(entry.seat), focus: `c${entry.seat}:${prompt.verb}:${JSON.stringify(choice.args)}` },
              onclick: () => {
                if (chosen) state.stage.entries.delete(entry.seat);
                else state.stage.entries.set(entry.seat, { verb: prompt.verb, args: choice.args, label: choice.label });
                state.problem = "";
                page.render();
              },
            },
            chosen ? `✓ ${text}` : text,
          );
        }),
        ),
      ];
    }),
  );
}

/** Whether a choice names one player, and its label says so. */
function pointsAt(page, choice) {
  return choice.args.length === 1 && Number.isInteger(choice.args[0]) && choice.label.includes(seatName(page, choice.args[0]));
}

/** The votes entered so far, counted: the leader reads the count before confirming. */
function tally(page, state) {
  const votes = new Map();
  let abstain = 0;
  for (const entry of state.stage.entries.values()) {
    if (entry.verb === "vote" && entry.args.length === 1) votes.set(entry.args[0], (votes.get(entry.args[0]) || 0) + 1);
    else if (entry.verb === "abstain") abstain++;
  }
  if (!votes.size && !abstain) return null;
  // (the votes a banishment needs, while it is the public step under way)
  const needed = page.view.public?.step?.needed ?? null;
  return h(
    "div",
    { class: "leader-tally", role: "status" },
    h("h4", {}, t("leader_count")),
    h(
      "ul",
      {},
      [...votes].sort((a, b) => b[1] - a[1]).map(([seat, count]) => h("li", {}, t("leader_votes_for", { player: seatName(page, seat), count }))),
      abstain ? h("li", {}, t("leader_abstaining", { count: abstain })) : null,
    ),
    needed ? h("p", { class: "hint" }, t("leader_needed", { count: needed })) : null,
  );
}

function entries(page, state) {
  const staged = [...state.stage.entries];
  return h(
    "div",
    { class: "leader-entries" },
    h("h4", {}, t("leader_entries")),
    staged.length
      ? h(
          "ul",
          {},
          staged.map(([seat, entry]) =>
            h(
              "li",
              {},
              h("span", {}, `${seatName(page, seat)}: ${entry.label}`),
              h(
                "button",
                {
                  type: "button",
                  class: "small leader-undo",
                  disabled: state.sending,
                  "aria-label": t("leader_undo_for", { player: seatName(page, seat) }),
                  dataset: { seat: String(seat), focus: `u${seat}` },
                  onclick: () => {
                    state.stage.entries.delete(seat);
                    page.render();
                  },
                },
                t("leader_undo"),
              ),
            ),
          ),
        )
      : h("p", { class: "hint" }, t("leader_no_entries")),
  );
}

// ---------------------------------------------------------------- confirming a step

/** Send the staged entries one by one (each answers the view it follows), then close
 * the step if it is still open: missing choices pass or abstain. A refusal stops there,
 * shows the server's words and keeps what is left staged. */
async function confirmStep(page, state, start) {
  if (state.sending) return;
  state.sending = true;
  state.problem = "";
  page.render();
  const before = verbs(page.view.table);
  const acted = [];
  try {
    for (const [seat, entry] of [...state.stage.entries]) {
      if (nowStart(page) !== start || page.view.finished) break;
      await page.connection.send({ type: "act", seat, verb: entry.verb, args: entry.args, state_id: page.view.state_id });
      state.stage.entries.delete(seat);
      acted.push(seat);
    }
    const view = page.view;
    if (nowStart(page) === start && !view.finished && !goesOn(view.table, before, acted)) {
      await page.connection.send({ type: "close", state_id: view.state_id });
    }
  } catch (error) {
    // The server's own words; a lost connection has none (the page reconnects by itself).
    const message = error.code === "disconnected" ? t("reconnecting") : refusal(error);
    state.problem = t("leader_refused", { message });
  }
  state.sending = false;
  page.render();
}

function verbs(table) {
  return new Map(table.map((row) => [row.seat, row.prompts.map((prompt) => prompt.verb).sort().join(" ")]));
}

/** After the entries, does a seat that was entered have something new to decide in the
 * same step (the Witch's second potion)? Then the step stays open for the next tap. A
 * nomination's "withdraw" and unchanged choices (a ballot, a split pack) do not count. */
function goesOn(table, before, acted) {
  const now = verbs(table);
  return acted.some((seat) => {
    const left = now.get(seat);
    if (!left || left === "withdraw") return false;
    return left !== before.get(seat);
  });
}
