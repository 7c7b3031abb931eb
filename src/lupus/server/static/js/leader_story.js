// Reading a game leader's view (docs/protocol.md, "Game-leader rooms") as a script: where
// the open step began, and what the leader has to say, show or note since a given event,
// each event with the sentence the server paired with it (`told`, the frame's). Which
// kinds open a step, echo an entry, are noted or skipped is the rulebook's (`script` of
// its entry in `GET /api/rulebooks`, declared by the roles with their events): the page
// names none of them. Nothing here draws; leader.js does.

const NO_MARKS = { opens: new Set(), echoes: new Set(), noted: new Set(), skipped: new Set() };
const MARKS = new WeakMap(); // a rulebook entry -> its script's kinds as sets

/** The kinds of the page's rulebook by their place in a leader's script, as sets. */
export function marksOf(page) {
  const book = page.book;
  if (!book?.script) return NO_MARKS;
  let marks = MARKS.get(book);
  if (!marks) {
    const set = (key) => new Set(book.script[key] || []);
    marks = { opens: set("opens"), echoes: set("echoes"), noted: set("noted"), skipped: set("skipped") };
    MARKS.set(book, marks);
  }
  return marks;
}

/** A line without the leader's "(to Ann) " mark: what the player is told. */
export function unmarked(line) {
  return line.replace(/^\([^)]*\)\s*/, "");
}

/** The index of the event that opened the current step (-1: none yet). */
export function stepStart(page) {
  const events = page.events;
  const opens = marksOf(page).opens;
  for (let i = events.length - 1; i >= 0; i--) if (opens.has(events[i].kind)) return i;
  return -1;
}

/** Where the script of the step before `start` begins, when the page has not seen it
 * (a reload): the opener before, skipping steps nobody was woken for. */
export function stepBefore(page, start) {
  const events = page.events;
  const opens = marksOf(page).opens;
  for (let i = start - 1; i >= 0; i--) {
    const event = events[i];
    if (!opens.has(event.kind)) continue;
    const next = events[i + 1];
    if (wakes(event) && next && opens.has(next.kind)) continue;
    return i;
  }
  const night = events.findIndex((event) => event.kind === "night");
  return night >= 0 && night < start ? night : start;
}

/** Whether a step's opener wakes a night step's cards (it names the step: `wake`'s
 * `step`, as `view.public.step.step` does). */
function wakes(event) {
  return typeof event.data?.step === "string";
}

/** The card each seat holds now (the last deal or exchange), by seat, as the leader's
 * own part of the frame says (`view.own.cards`). */
export function cardsHeld(page) {
  const cards = page.view?.own?.cards || {};
  return new Map(Object.entries(cards).map(([seat, role]) => [Number(seat), role]));
}

/** Lupusburg: each seat's two characters (under its first and second house) and which
 * of the two holds its chest (1 or 2), as the leader's own part of the frame says (the
 * deal: `view.own.characters` and `view.own.chests`). */
export function housesHeld(page) {
  const own = page.view?.own;
  const held = new Map();
  if (!own?.characters) return held;
  for (let player = 0; 2 * player in own.characters; player++) {
    const first = 2 * player;
    const characters = [own.characters[first]?.character, own.characters[first + 1]?.character];
    held.set(player, { characters, chest: own.chests[first + 1]?.chest ? 2 : 1 });
  }
  return held;
}

/** The seats who hold the card a night step (`wake.step`) calls. */
export function holders(page, step) {
  const role = step.replace(/_/g, "-");
  return [...cardsHeld(page)].filter(([, rid]) => rid === role || rid === step).map(([seat]) => seat);
}

/**
 * The script of the page's events[from, to): a list of items, in order:
 * - {kind: "read", text}: public news to read out,
 * - {kind: "show", seats, event, text}: what to show those seats (their private news),
 * - {kind: "sleep", step, seats}: whom to put back to sleep after a night step,
 * - {kind: "noted", text}: an entry made (the leader's record: a pick, a nomination),
 * - {kind: "private", text}: what only the leader learns.
 * `open`: the step is still going on (nobody goes back to sleep yet), and its opener is
 * read out as the call that starts it. `quiet`: the events before it were on screen
 * already (they still tell who was awake).
 */
export function script(page, from, to, open = false, quiet = from) {
  const run = scriptRun(page, from, quiet);
  for (run.i = Math.max(0, from); run.i < to; run.i++) {
    const event = page.events[run.i];
    if (run.marks.skipped.has(event.kind)) continue;
    // The narration left it out (the pack told again, unchanged): so does the script.
    if (page.told[run.i] === null) {
      if (run.awake && event.audience) for (const seat of run.living(event.audience)) run.awake.seats.add(seat);
      continue;
    }
    if (run.marks.opens.has(event.kind)) opener(run, event, open);
    else if (event.audience === null) publicItem(run, event);
    else privateItem(run, event);
  }
  if (!open) run.sleep();
  return run.items;
}

/** The state of one script's making: its items, who is awake, who is dead. */
function scriptRun(page, from, quiet) {
  const run = { i: from, items: [], awake: null, from, marks: marksOf(page) };
  run.add = (item) => {
    if (run.i >= quiet) run.items.push(item);
  };
  // The eliminated who watch the night (maffia) are told its steps with open eyes:
  // nobody wakes them, shows them anything or puts them back to sleep. Who is dead at
  // each event: the index of the event that told his death (`view.own.died`).
  const died = page.view?.own?.died || {};
  run.living = (seats) => [...seats].filter((seat) => !(died[seat] <= run.i));
  run.text = () => {
    const at = page.told[run.i];
    return at === null || at === undefined ? null : (page.lines[at] ?? null);
  };
  run.sleep = () => {
    const awake = run.awake;
    if (!awake) return;
    const seats = awake.seats.size ? [...awake.seats] : holders(page, awake.step);
    run.items.push({ kind: "sleep", step: awake.step, seats: seats.sort((a, b) => a - b) });
    run.awake = null;
  };
  return run;
}

/** An event that opens a step: the step before ends (its woken go back to sleep). */
function opener(run, event, open) {
  const text = run.text();
  run.sleep();
  // The step the leader ran has been read out already; a later one he did not see.
  if ((run.i !== run.from || open) && text) run.add({ kind: "read", text, event });
  if (wakes(event)) run.awake = { step: event.data.step, seats: new Set() };
}

/** A public event: an entry in the open step (noted), or news to read out. */
function publicItem(run, event) {
  const text = run.text();
  if (run.marks.echoes.has(event.kind)) {
    if (text) run.add({ kind: "noted", text, event });
    return;
  }
  run.sleep();
  if (text) run.add({ kind: "read", text, event });
}

/** A private event: the leader's own, his bookkeeping, or what to show its seats. */
function privateItem(run, event) {
  const text = run.text();
  const audience = event.audience;
  const reached = run.living(audience);
  if (run.awake) for (const seat of reached) run.awake.seats.add(seat);
  if (!audience.length) run.add({ kind: "private", text: text ? unmarked(text) : event.kind, event });
  else if (run.marks.noted.has(event.kind)) run.add({ kind: "noted", text: text ? unmarked(text) : event.kind, event });
  else if (reached.length) run.add({ kind: "show", seats: reached.sort((a, b) => a - b), event, text: text ? unmarked(text) : "" });
}
