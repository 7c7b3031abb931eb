// Reading a game leader's view (docs/protocol.md, "Game-leader rooms") as a script: where
// the open step began, and what the leader has to say, show or note since a given event,
// each event with the sentence the server paired with it (`told`, the frame's). Nothing
// here draws; leader.js does.

/** Events that open a step where players choose: the script starts a step there. */
export const OPENERS = new Set([
  "wake",
  "nominations_open",
  "banishment_opens",
  "vote_opens",
  "election",
  "hunter_aims",
  "tie",
]);

/** Public events that are one player's entry in an open step, not news to read out. */
const ECHOES = new Set(["nomination", "withdrawal", "ballot"]);

/** Private events that are the leader's own bookkeeping: nothing to show anybody. */
const NOTED = new Set(["pack_choice", "protection", "potion", "shot", "linked"]);

/** What the story leaves out of the script (the deal has a panel of its own). */
const SKIPPED = new Set(["game_starts", "role_dealt"]);

/** A line without the leader's "(to Ann) " mark: what the player is told. */
export function unmarked(line) {
  return line.replace(/^\([^)]*\)\s*/, "");
}

/** The index of the event that opened the current step (-1: none yet). */
export function stepStart(events) {
  for (let i = events.length - 1; i >= 0; i--) if (OPENERS.has(events[i].kind)) return i;
  return -1;
}

/** Where the script of the step before `start` begins, when the page has not seen it
 * (a reload): the opener before, skipping steps nobody was woken for. */
export function stepBefore(events, start) {
  for (let i = start - 1; i >= 0; i--) {
    const event = events[i];
    if (!OPENERS.has(event.kind)) continue;
    const next = events[i + 1];
    if (event.kind === "wake" && next && OPENERS.has(next.kind)) continue;
    return i;
  }
  const night = events.findIndex((event) => event.kind === "night");
  return night >= 0 && night < start ? night : start;
}

/** The card each seat holds now (the last deal or exchange), by seat. */
export function cardsHeld(events) {
  const held = new Map();
  for (const event of events) {
    if (event.kind === "role_dealt" || event.kind === "role_taken") held.set(event.data.player, event.data.role);
  }
  return held;
}

/** Lupusburg: each seat's two characters (under its first and second house) and the
 * house of its chest, from the deal's events. */
export function housesHeld(events) {
  const held = new Map();
  for (const event of events) {
    if (event.kind !== "characters_dealt") continue;
    const { player, characters, chest } = event.data;
    const first = 2 * player;
    held.set(player, { characters: [characters[first], characters[first + 1]], chest: chest - first + 1 });
  }
  return held;
}

/** The seats who hold the card a night step (`wake.step`) calls. */
export function holders(events, step) {
  const role = step.replace(/_/g, "-");
  return [...cardsHeld(events)].filter(([, rid]) => rid === role || rid === step).map(([seat]) => seat);
}

/**
 * The script of events[from, to): a list of items, in order:
 * - {kind: "read", text}: public news to read out,
 * - {kind: "show", seats, event, text}: what to show those seats (their private news),
 * - {kind: "sleep", step, seats}: whom to put back to sleep after a night step,
 * - {kind: "noted", text}: an entry made (the leader's record: a pick, a nomination),
 * - {kind: "private", text}: what only the leader learns.
 * `open`: the step is still going on (nobody goes back to sleep yet), and its opener is
 * read out as the call that starts it. `quiet`: the events before it were on screen
 * already (they still tell who was awake).
 */
export function script(events, lines, told, from, to, open = false, quiet = from) {
  const items = [];
  let i = from;
  const add = (item) => {
    if (i >= quiet) items.push(item);
  };
  let awake = null;
  // The eliminated who watch the night (maffia) are told its steps with open eyes:
  // nobody wakes them, shows them anything or puts them back to sleep.
  const dead = new Set();
  for (let k = 0; k < Math.max(0, from); k++) if (events[k].kind === "death") dead.add(events[k].data.player);
  const living = (seats) => [...seats].filter((seat) => !dead.has(seat));
  const line = (i) => (told[i] === null || told[i] === undefined ? null : (lines[told[i]] ?? null));
  const sleep = () => {
    if (!awake) return;
    const seats = awake.seats.size ? [...awake.seats] : holders(events.slice(0, to), awake.step);
    items.push({ kind: "sleep", step: awake.step, seats: seats.sort((a, b) => a - b) });
    awake = null;
  };
  for (i = Math.max(0, from); i < to; i++) {
    const event = events[i];
    if (event.kind === "death") dead.add(event.data.player);
    if (SKIPPED.has(event.kind)) continue;
    // The narration left it out (the pack told again, unchanged): so does the script.
    if (told[i] === null) {
      if (awake && event.audience) for (const seat of living(event.audience)) awake.seats.add(seat);
      continue;
    }
    const text = line(i);
    if (OPENERS.has(event.kind)) {
      sleep();
      // The step the leader ran has been read out already; a later one he did not see.
      if ((i !== from || open) && text) add({ kind: "read", text, event });
      if (event.kind === "wake") awake = { step: event.data.step, seats: new Set() };
      continue;
    }
    const audience = event.audience;
    if (audience === null) {
      if (ECHOES.has(event.kind)) {
        if (text) add({ kind: "noted", text, event });
        continue;
      }
      sleep();
      if (text) add({ kind: "read", text, event });
      continue;
    }
    const reached = living(audience);
    if (awake) for (const seat of reached) awake.seats.add(seat);
    if (!audience.length) add({ kind: "private", text: text ? unmarked(text) : event.kind, event });
    else if (NOTED.has(event.kind)) add({ kind: "noted", text: text ? unmarked(text) : event.kind, event });
    else if (reached.length) add({ kind: "show", seats: reached.sort((a, b) => a - b), event, text: text ? unmarked(text) : "" });
  }
  if (!open) sleep();
  return items;
}
