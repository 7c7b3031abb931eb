// The frame's story as the page keeps it (room.js merges it): the events, the lines, and
// for each event the index of its sentence among the lines (`told`, docs/protocol.md,
// "view"). The server pairs each event with its sentence; the page reads the pairing,
// it never counts lines to find it. What the game's public state is (who is alive, the
// cards shown, the titles, the last outcome, the step under way, the end) is
// `view.public` (table.js), not read here.

/** The sentence the server told for event `i` of the page's events, or null. */
export function sentenceAt(page, i) {
  const at = page.told?.[i];
  return at === null || at === undefined ? null : (page.lines[at] ?? null);
}

/** The lines told to this seat alone (its events with an audience) since the phase
 * began: the public `night` or `day` that opened it ends the search. */
export function privateLinesOfPhase(page) {
  const mine = [];
  for (let i = page.events.length - 1; i >= 0; i--) {
    const event = page.events[i];
    if (event.audience === null && (event.kind === "night" || event.kind === "day")) break;
    const said = sentenceAt(page, i);
    if (event.audience !== null && said !== null) mine.unshift(said);
  }
  return mine;
}

/** The lines every phone at one table may show: all but the sentences of events told
 * to some seats only. */
export function publicLines(page) {
  const secret = new Set();
  page.events.forEach((event, i) => {
    const at = page.told?.[i];
    if (event.audience !== null && at !== null && at !== undefined) secret.add(at);
  });
  return page.lines.filter((_, i) => !secret.has(i));
}

/** The index among the page's events of the public event at `place` among the public
 * events (the places `view.public` names: a death's `event`, the step's), or -1. */
export function publicIndex(page, place) {
  if (place === null || place === undefined) return -1;
  let count = 0;
  for (let i = 0; i < page.events.length; i++) {
    if (page.events[i].audience !== null) continue;
    if (count === place) return i;
    count++;
  }
  return -1;
}

/** The sentence of the public event at `place` (as `publicIndex`), or null. */
export function publicSentence(page, place) {
  const i = publicIndex(page, place);
  return i < 0 ? null : sentenceAt(page, i);
}

/** The night step open now, as everyone was told it (`view.public.step`, opened by its
 * public call), or null: `{id, key}`, `key` naming it in this game ("2.3": night 2,
 * its third step). */
export function openStep(page) {
  const step = page.view?.public?.step;
  if (!step || step.step === null || page.view.phase !== "night") return null;
  return { id: step.step, key: `${step.number}.${step.place}` };
}

/** The game's end as it was told (`view.public.end`: the winners, the side, the
 * scores), or null while the game goes on. */
export function gameOver(page) {
  return page.view?.public?.end || null;
}
