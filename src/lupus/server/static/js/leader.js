// A game-leader room (docs/protocol.md, "Game-leader rooms"): one device, a human
// leader and physical cards. The page is his script: the cards to put in the deck and
// the roles to explain, whom to give which card, then step by step whom to wake, what
// they point at (his taps, staged on the page until he confirms the step, each one
// undoable), what to show them, whom to put back to sleep, and what to read out.

import { h } from "./dom.js";
import { lang, refusal, t } from "./i18n.js";
import { endBanner, news, roleName, statusBar, tableList } from "./play.js";
import { cardsHeld, housesHeld, script, stepBefore, stepStart } from "./leader_story.js";

const STORE = "lupus:leader:";

export function leaderScreen(page) {
  const view = page.view;
  const state = leaderState(page);
  keepFocus();
  if (!state.dealt && !view.finished) {
    return h(
      "section",
      { class: `game leader phase-${view.phase}`, "aria-labelledby": "phase-title" },
      statusBar(page),
      prepare(page, state),
    );
  }
  // (the steps are the rulebook's: until its entry is here, nothing is scripted)
  if (!page.book) return h("section", { class: `game leader phase-${view.phase}`, "aria-labelledby": "phase-title" }, statusBar(page), news(page), tableList(page));
  const start = view.finished ? page.events.length : Math.max(0, stepStart(page));
  follow(page, state, start);
  const before = script(page, state.prev, start, false, state.prevSeen ?? state.prev);
  return h(
    "section",
    { class: `game leader phase-${view.phase}`, "aria-labelledby": "phase-title" },
    statusBar(page),
    view.finished ? endBanner(page) : null,
    before.length ? recapCard(page, before) : null,
    view.finished ? null : stepCard(page, state, start),
    h(
      "details",
      { class: "card leader-deck-again" },
      h("summary", {}, t("leader_deck_again")),
      deckList(page),
      dealTable(page),
    ),
    news(page),
    tableList(page),
  );
}

// ---------------------------------------------------------------- the page's memory

/** What the page remembers of this game for its leader: the deal done, the step shown
 * before the current one (the recap starts there), the entries staged. The first two
 * survive a reload (session storage); staged entries do not (nothing was sent). */
function leaderState(page) {
  const game = page.view.game;
  if (page.leaderState?.game === game) return page.leaderState;
  let kept = {};
  try {
    kept = JSON.parse(sessionStorage.getItem(STORE + game) || "{}");
  } catch {
    kept = {};
  }
  page.leaderState = {
    game,
    dealt: Boolean(kept.dealt),
    prev: kept.prev ?? null,
    cur: kept.cur ?? null,
    prevSeen: kept.prevSeen ?? null,
    seen: kept.seen ?? null,
    stage: { start: null, entries: new Map() },
    sending: false,
    problem: "",
  };
  return page.leaderState;
}

function save(state) {
  try {
    sessionStorage.setItem(STORE + state.game, JSON.stringify({ dealt: state.dealt, prev: state.prev, cur: state.cur, prevSeen: state.prevSeen, seen: state.seen }));
  } catch {
    // private browsing: the page forgets on reload, nothing worse
  }
}

/** Move the recap on when a new step opens: it covers the steps since the one shown,
 * from what was on screen when the leader confirmed it (`seen`, an event count). */
function follow(page, state, start) {
  if (state.cur === start) return;
  state.prev = state.cur ?? stepBefore(page, start);
  state.prevSeen = state.cur === null ? null : state.seen;
  state.cur = start;
  state.seen = null;
  state.problem = "";
  save(state);
}

/** Keep the keyboard's place: the screen is drawn anew at every change. */
function keepFocus() {
  const key = document.activeElement?.dataset?.focus;
  if (!key) return;
  queueMicrotask(() => {
    const again = [...document.querySelectorAll("[data-focus]")].find((el) => el.dataset.focus === key);
    if (again && !again.disabled) again.focus();
    else document.getElementById("leader-now")?.focus();
  });
}

// ---------------------------------------------------------------- names

function seatName(page, seat) {
  return page.name(seat);
}

function list(names) {
  try {
    return new Intl.ListFormat(lang(), { type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

function sideName(page, faction) {
  const names = page.book?.names || {};
  return names[`faction.${faction}`] || names[faction] || faction;
}

/** A night step's name: its card's, else the rulebook's name for it (a pack, the lovers). */
function stepName(page, step) {
  const book = page.book;
  const role = step.replace(/_/g, "-");
  return book?.roles?.[step]?.name || book?.roles?.[role]?.name || book?.names?.[step] || book?.names?.[role] || step;
}

function withCards(page, seats) {
  const held = cardsHeld(page.events);
  return list(seats.map((seat) => (held.has(seat) ? t("leader_seat_card", { player: seatName(page, seat), role: roleName(page, held.get(seat)) }) : seatName(page, seat))));
}

// ---------------------------------------------------------------- before the game

/** The deck, in the rulebook's order of its roles. */
function composition(page) {
  const start = page.events.find((event) => event.kind === "game_starts");
  const deck = start?.data?.composition || page.lobby.composition;
  const order = Object.keys(page.book?.roles || {});
  const rank = (rid) => (order.includes(rid) ? order.indexOf(rid) : order.length);
  return Object.fromEntries(Object.entries(deck).sort((a, b) => rank(a[0]) - rank(b[0])));
}

function deckList(page) {
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

function dealTable(page) {
  const held = cardsHeld(page.events);
  const houses = housesHeld(page.events);
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

function prepare(page, state) {
  return h(
    "div",
    { class: "card leader-prepare" },
    h("h2", { id: "leader-now", tabindex: "-1" }, t("leader_prepare")),
    deckList(page),
    h("p", { class: "hint" }, t("leader_deal_hint")),
    dealTable(page),
    h(
      "button",
      {
        type: "button",
        class: "primary",
        id: "leader-begin",
        onclick: () => {
          state.dealt = true;
          save(state);
          page.render();
          document.getElementById("leader-now")?.focus();
        },
      },
      t("leader_dealt"),
    ),
  );
}

// ---------------------------------------------------------------- the script

function recapCard(page, items) {
  return h(
    "div",
    { class: "card leader-recap", role: "region", "aria-labelledby": "recap-title" },
    h("h3", { id: "recap-title" }, t("leader_recap")),
    itemList(page, items),
  );
}

/** Script items (leader_story.js) as a list: what to read out (what follows on is read
 * in one go), show, note. */
function itemList(page, items) {
  const grouped = [];
  for (const item of items) {
    const last = grouped[grouped.length - 1];
    if (item.kind === "read" && last?.kind === "read") last.texts.push(item.text);
    else grouped.push(item.kind === "read" ? { kind: "read", texts: [item.text] } : item);
  }
  return h(
    "ol",
    { class: "leader-script" },
    grouped.map((item) => {
      switch (item.kind) {
        case "read":
          return h(
            "li",
            { class: "leader-read" },
            h("span", { class: "leader-label" }, t("leader_read")),
            item.texts.map((text) => h("span", { class: "leader-said" }, h("q", {}, text))),
          );
        case "show":
          return h(
            "li",
            { class: "leader-show" },
            h("span", { class: "leader-label" }, t("leader_show", { players: withCards(page, item.seats) })),
            " ",
            shown(page, item),
          );
        case "sleep":
          return h(
            "li",
            { class: "leader-sleep" },
            h("span", { class: "leader-label" }, t("leader_sleep")),
            " ",
            item.seats.length ? t("leader_step_seats", { step: stepName(page, item.step), players: list(item.seats.map((s) => seatName(page, s))) }) : stepName(page, item.step),
          );
        case "private":
          return h("li", { class: "leader-private" }, h("span", { class: "leader-label" }, t("leader_for_you")), " ", item.text);
        default:
          return h("li", { class: "leader-noted" }, item.text);
      }
    }),
  );
}

/** What to show a player: the Detective's thumb, the Seer's card, the victim... with
 * the rulebook's names; anything else as the sentence the player is told. */
function shown(page, item) {
  const event = item.event;
  const data = event.data;
  switch (event.kind) {
    case "inspection": {
      // Thumbs up for the village's side, down for the other (the maffia seed).
      const village = page.book?.roles?.villager?.faction;
      const up = village ? data.side === village : true;
      return h(
        "span",
        { class: `leader-thumb ${up ? "up" : "down"}` },
        h("span", { class: "leader-thumb-icon", "aria-hidden": "true" }, up ? "▲" : "▼"),
        " ",
        h("strong", {}, t(up ? "leader_thumb_up" : "leader_thumb_down")),
        " — ",
        t("leader_side_of", { player: seatName(page, data.player), side: sideName(page, data.side) }),
      );
    }
    case "vision":
      return h("span", {}, t("leader_card_of", { player: seatName(page, data.player) }), " ", h("strong", { class: "leader-card" }, roleName(page, data.role)));
    case "victim_shown":
      return data.target === null || data.target === undefined
        ? h("strong", {}, t("leader_no_victim"))
        : h("span", {}, t("leader_victim"), " ", h("strong", {}, seatName(page, data.target)));
    case "pack_victim":
      return data.target === null || data.target === undefined
        ? h("strong", {}, t("leader_no_victim"))
        : h("span", {}, t("leader_point_victim", { player: seatName(page, data.target), pack: page.book?.names?.pack || "" }));
    default:
      return h("span", {}, item.text);
  }
}

function stepCard(page, state, start) {
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
  const items = start >= 0 ? script(page, start, page.events.length, true) : [];
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
  const held = cardsHeld(page.events);
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
  const opened = [...page.events].reverse().find((event) => event.kind === "banishment_opens");
  const needed = opened && stepStart(page) === page.events.indexOf(opened) ? opened.data.needed : null;
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
      if (stepStart(page) !== start || page.view.finished) break;
      await page.connection.send({ type: "act", seat, verb: entry.verb, args: entry.args, state_id: page.view.state_id });
      state.stage.entries.delete(seat);
      acted.push(seat);
    }
    const view = page.view;
    if (stepStart(page) === start && !view.finished && !goesOn(view.table, before, acted)) {
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
