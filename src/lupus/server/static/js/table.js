// The public state of the table: who sits where, alive or not, the cards the rulebook
// has made public, the titles, and the outcome of the last phase. The server derives it
// once and sends it in every view (`view.public`, docs/protocol.md): the page reads it
// there and never works it out again from the event log.

const EMPTY = { players: [], outcome: null };

/** `view.public` as the server sent it (an empty table before the first view). */
export function publicTable(page) {
  const given = page.view?.public;
  return given && Array.isArray(given.players) ? given : EMPTY;
}

/** The seats of the public table by number. */
export function playersBySeat(page) {
  const bySeat = new Map();
  for (const player of publicTable(page).players) bySeat.set(player.seat, player);
  return bySeat;
}

/** Whether `seat` is out of the game, as the table shows it. */
export function isDead(page, seat) {
  const player = playersBySeat(page).get(seat);
  return player ? !player.alive : false;
}

/** The seat that holds `title` now (its id: `captain`, `burgomaster`), or null. */
export function holderOf(page, title) {
  const found = publicTable(page).players.find((player) => (player.titles || []).includes(title));
  return found ? found.seat : null;
}
