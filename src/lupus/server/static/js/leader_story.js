// Reading a game leader's script (docs/protocol.md, "Game-leader rooms": `view.script`):
// the server makes it from his events and the sentences it paired with them, step by
// step, each step with its items (what to read out, show, note, whom to put back to
// sleep), each item with the index of the event it comes from. The page picks what to
// show of it (the step under way, the recap of those since the one it showed) and
// derives nothing from the event log. Nothing here draws; leader.js does.

const NO_STEPS = [];

/** The script's steps, oldest first ([] before the first frame that has one). */
function steps(page) {
  return page.view?.script?.steps || NO_STEPS;
}

/** The step under way (its items: the call that opens it, then what follows), or null
 * before any event. */
function stepNow(page) {
  const all = steps(page);
  return all.length ? all[all.length - 1] : null;
}

/** Where the step under way began: the index of the event that opened it (0 for the
 * game's opening, before any step). */
export function nowStart(page) {
  return stepNow(page)?.event ?? 0;
}

/** Where the recap begins on a page that has shown no step of this game yet (a new
 * page at a game under way): the server's `before`, for the step under way at `start`. */
export function firstRecap(page, start) {
  return page.view?.script?.before ?? start;
}

/** The items of the step under way, while it is open. */
export function nowItems(page) {
  const step = stepNow(page);
  return step?.open ? step.items : NO_STEPS;
}

/**
 * The items of the steps between the events `from` and `to` (a recap), in order: not
 * the call that opened the step at `from` (read out when it was shown), nor what was
 * on screen already (before `quiet`); a step's "sleep" where its night was followed
 * from its opening.
 */
export function recapItems(page, from, to, quiet = from) {
  const items = [];
  for (const step of steps(page)) {
    if (step.event >= to) break;
    const whole = step.event >= from;
    for (const item of step.items) {
      if (item.kind === "sleep") {
        if (whole) items.push(item);
        continue;
      }
      if (item.event < from || item.event >= to || item.event < quiet) continue;
      if (item.event === from && step.event === from && step.kind !== null) continue;
      items.push(item);
    }
  }
  return items;
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
