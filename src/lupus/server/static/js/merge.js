// A view frame merged into what a page has of its game (docs/protocol.md, "Merging"):
// events, their sentences and a leader's script come as news, after what the page has;
// the public table, when a view leaves it out, is the last one told.

/** Merge `frame` into `page` (its `events`, `told`, `lines`, `fresh`, and into the frame
 * itself the public table and the script it builds on); the page then takes the frame
 * as its view. */
export function mergeFrame(page, frame) {
  if (!page.view || frame.from === 0 || frame.game !== page.view.game) {
    page.events = [];
    page.lines = [];
    page.told = [];
    page.revealed = false;
  }
  // Each event keeps the index of its sentence (`told`, counted from the frame with
  // `from` 0, as `lines` is): the page pairs them by it, never by counting lines.
  page.events.length = Math.min(page.events.length, frame.from);
  page.told.length = Math.min(page.told.length, frame.from);
  page.events.push(...frame.events);
  page.told.push(...(frame.told || frame.events.map(() => null)));
  if (frame.from === 0) page.lines = [];
  page.lines.push(...frame.lines);
  page.fresh = frame.lines;
  // The public table comes with the views; one without it keeps the last one told.
  if (frame.public === undefined && page.view && frame.from !== 0 && frame.game === page.view.game) {
    frame.public = page.view.public;
  }
  // A leader's script comes as news too: the steps after those it keeps (`kept`).
  if (frame.script) {
    const had = frame.script.kept && page.view?.script ? page.view.script.steps.slice(0, frame.script.kept) : [];
    frame.script = { ...frame.script, steps: had.concat(frame.script.steps) };
  }
}
