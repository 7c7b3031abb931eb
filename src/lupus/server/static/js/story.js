// The frame's story as the page keeps it (room.js merges it): the events, the lines, and
// for each event the index of its sentence among the lines (`told`, docs/protocol.md,
// "view"). The server pairs each event with its sentence; the page reads the pairing,
// it never counts lines to find it. What the game's public state is (who is alive, the
// cards shown, the titles, the last outcome) is `view.public` (table.js), not read here.

/** The sentence the server told for event `i` of the page's events, or null. */
export function sentenceAt(page, i) {
  const at = page.told?.[i];
  return at === null || at === undefined ? null : (page.lines[at] ?? null);
}

/** The sentence of the latest event that `wanted`, in the rulebook's own words and the
 * reader's language (null: none, or the event has no sentence of its own). */
export function latestSentence(page, wanted) {
  for (let i = page.events.length - 1; i >= 0; i--) {
    const said = sentenceAt(page, i);
    if (said !== null && wanted(page.events[i])) return said;
  }
  return null;
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

/** The night step open now, as everyone was told it (its public `wake`), or null:
 * `{id, key}`, `key` naming it in this game ("2.3": night 2, its third step). */
export function openStep(page) {
  let step = null;
  let count = 0;
  for (const event of page.events) {
    if (event.audience !== null) continue;
    if (event.kind === "night") count = 0;
    if (event.kind === "wake") {
      count++;
      step = { id: event.data.step, key: `${event.number}.${count}` };
    } else if (event.phase !== "night" || event.kind === "dawn") step = null;
  }
  return page.view?.phase === "night" ? step : null;
}

/** The game's end as it was told (`game_over`'s data: the winners, every card, the
 * scores), or null while the game goes on. */
export function gameOver(page) {
  for (let i = page.events.length - 1; i >= 0; i--) {
    if (page.events[i].kind === "game_over") return page.events[i].data;
  }
  return null;
}
