// The public state of the table: who sits where, alive or not, the cards the rulebook
// has made public, the titles, and the outcome of the last phase. The server derives it
// once and sends it in every view (`view.public`, docs/protocol.md); a server that does
// not send it yet is read from the public events instead, as far as they tell it.

import { captainOf } from "./day.js";

/** `view.public` as the server sent it, or the same shape read from the events. */
export function publicTable(page) {
  const given = page.view?.public;
  if (given && Array.isArray(given.players)) return given;
  return fromEvents(page);
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

function fromEvents(page) {
  const dead = new Set();
  const cards = new Map();
  for (const event of page.events) {
    if (event.audience !== null) continue;
    const data = event.data;
    if (event.kind === "death") {
      dead.add(data.player);
      if (data.role) cards.set(data.player, data.role);
    }
    if (event.kind === "game_over" && data.roles) {
      for (const [seat, role] of Object.entries(data.roles)) cards.set(Number(seat), role);
    }
  }
  const captain = captainOf(page);
  const seats = page.lobby?.seats || [];
  const players = [];
  seats.forEach((seat, number) => {
    if (!seat) return;
    players.push({
      seat: number,
      name: seat.name,
      alive: !dead.has(number),
      card: cards.get(number) ?? null,
      titles: number === captain ? ["captain"] : [],
    });
  });
  return { players, outcome: outcomeFromEvents(page.events) };
}

/** The last phase's outcome from the public events: the night's deaths told at dawn (or
 * that nobody died, or a failed attempt), or the day's vote and its deaths. */
function outcomeFromEvents(events) {
  const open = events.filter((event) => event.audience === null);
  let start = -1;
  for (let i = open.length - 1; i >= 0; i--) {
    if (open[i].kind === "dawn" || open[i].kind === "night") {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  const opening = open[start];
  const night = opening.kind === "dawn";
  const outcome = {
    phase: night ? "night" : "day",
    number: night ? opening.data.number : Math.max(0, opening.data.number - 1),
    deaths: [],
    votes: night ? null : [],
    failed_attempt: false,
  };
  // A night's outcome is told from its dawn on; a day's is what happened since the day
  // began, up to the night now falling.
  let from = start + 1;
  let to = open.length;
  if (!night) {
    to = start;
    from = to;
    while (from > 0 && open[from - 1].kind !== "day") from--;
  }
  for (const event of open.slice(from, to)) {
    const data = event.data;
    if (event.kind === "death") {
      outcome.deaths.push({ seat: data.player, cause: data.cause ?? null, card: data.role ?? null });
    }
    if (event.kind === "failed_attempt") outcome.failed_attempt = true;
    if (event.kind === "tally" && !night) {
      outcome.votes = Object.entries(data.votes || {})
        .map(([seat, votes]) => ({ seat: Number(seat), votes }))
        .sort((a, b) => b.votes - a.votes);
    }
  }
  return outcome;
}
