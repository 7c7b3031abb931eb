// Lupusburg's table as this seat knows it, read from its view alone: the day's bets,
// tokens and ballots, the claw, what this seat was shown, from its merged events
// (src/lupus/lupusburg/events.py); the Burgomaster, the cards turned up at the end and
// the end itself from the public table (`view.public`). Nothing here knows more than the view says. Houses
// are ints, a player's are 2 * seat and 2 * seat + 1; map keys come as strings.

import { t } from "./i18n.js";
import { holderOf, publicTable } from "./table.js";

const BURGOMASTER = "burgomaster"; // the title's id in `view.public`

/** One house as this seat knows it. */
function house(number) {
  return {
    number,
    owner: Math.floor(number / 2),
    nth: (number % 2) + 1,
    character: null, // a role id, once this seat knows it
    how: null, // "own" | "seen" (the privilege) | "shown" (to this seat) | "end"
    chest: null, // true / false once known
    chestHow: null, // "own" | "peeked" | "end"
    dead: null, // the cause, once the public table says it died
    claw: false,
    looked: false, // the Burgomaster used his privilege on it today
    tokens: 0, // the first voting's, today
    tokenBy: [], // who laid them, in turn
    suspect: null, // "paw" (first suspect) | "fur" (second)
    suspectTokens: null,
    myBallots: 0, // this seat's secret ballots against it, today
    votes: null, // the second voting once revealed
    lynched: false,
  };
}

export function readTable(page) {
  const state = {
    me: page.seat,
    n: page.lobby?.players || 0,
    names: [],
    coins: [],
    burgomaster: null,
    houses: [],
    bets: {}, // seat -> {target, coin (null: face down / unknown)}
    passed: new Set(), // seats that did not bet today
    drawn: null, // the coins in this seat's hand (drawn, not yet kept)
    keeping: null, // the seat whose bet was the last betting event today (his coin may be on its way)
    privilege: null, // {state: "used" | "declined" | "none", player, house, shownTo}
    stage: "setup", // "night" | "privilege" | "betting" | "first_voting" | "second_voting" | "lynched" | "over"
    round: 0,
    tokensLaid: 0,
    suspects: [],
    tieBreak: null,
    ballotsOut: false,
    day: 0,
    night: 0, // the latest night begun
    over: null,
  };
  const at = (h) => {
    while (state.houses.length <= h) state.houses.push(house(state.houses.length));
    return state.houses[h];
  };
  for (const event of page.events) {
    if (Object.hasOwn(READ, event.kind)) READ[event.kind](state, event.data, at);
  }
  fromPublic(page, state, at);
  return state;
}

/** What each of the seat's events does to its table (`d`: the event's data; `at(h)`:
 * house `h`, made if it is not yet). */
const READ = {
  game_starts(state, d, at) {
    state.names = d.players;
    state.n = d.players.length;
    state.coins = d.coins;
    at(2 * state.n - 1);
  },
  characters_dealt(state, d, at) {
    if (d.player !== state.me) return;
    for (const [h, character] of Object.entries(d.characters)) {
      Object.assign(at(Number(h)), { character, how: "own", chest: Number(h) === d.chest, chestHow: "own" });
    }
  },
  night(state, d) {
    // The claw moves again tonight; the day's tokens, evidence and votes stay on
    // the board until the next day begins (they are what the table last saw).
    state.stage = "night";
    state.night = d.number;
    for (const one of state.houses) one.claw = false;
    state.privilege = null;
  },
  clawed(state, d, at) {
    at(d.house).claw = true;
  },
  peeked(state, d, at) {
    const one = at(d.house);
    if (one.chestHow !== "own") Object.assign(one, { chest: d.chest, chestHow: "peeked" });
  },
  day(state, d) {
    Object.assign(state, { stage: "privilege", day: d.number, passed: new Set(), keeping: null });
    for (const one of state.houses) {
      Object.assign(one, { looked: false, tokens: 0, tokenBy: [], suspect: null, suspectTokens: null, myBallots: 0, votes: null, lynched: false });
    }
    Object.assign(state, { suspects: [], tieBreak: null, ballotsOut: false, tokensLaid: 0, round: 0 });
  },
  no_privilege(state, d) {
    state.privilege = { state: "none", player: d.player };
    state.stage = "betting";
  },
  privilege_declined(state, d) {
    state.privilege = { state: "declined", player: d.player };
    state.stage = "betting";
  },
  privilege(state, d, at) {
    state.privilege = { state: "used", player: d.player, house: d.house };
    at(d.house).looked = true;
  },
  privilege_seen(state, d, at) {
    const one = at(d.house);
    if (one.how !== "own") Object.assign(one, { character: d.character, how: "seen" });
  },
  privilege_shown(state, d, at) {
    const one = at(d.house);
    if (one.how !== "own") Object.assign(one, { character: d.character, how: "shown" });
    if (state.privilege) state.privilege.shown = d.house;
    state.stage = "betting";
  },
  bet(state, d) {
    state.bets[d.player] = { target: d.target, coin: null };
    state.keeping = d.player;
    state.stage = "betting";
  },
  coins_drawn(state, d) {
    if (d.player === state.me) state.drawn = d.coins;
  },
  coin_kept: kept,
  coin_picked: kept,
  no_bet(state, d) {
    state.passed.add(d.player);
    state.keeping = null;
    state.stage = "betting";
  },
  token(state, d, at) {
    const one = at(d.house);
    one.tokens += 1;
    one.tokenBy.push(d.player);
    Object.assign(state, { tokensLaid: state.tokensLaid + 1, round: d.round, stage: "first_voting", keeping: null });
  },
  suspects(state, d, at) {
    state.suspects = d.houses;
    state.tieBreak = d.tie_break || null;
    d.houses.forEach((h, i) => (at(h).suspect = i === 0 ? "paw" : "fur"));
    for (const [h, count] of Object.entries(d.tokens)) at(Number(h)).suspectTokens = count;
    state.stage = "second_voting";
  },
  ballot_cast(state, d, at) {
    if (d.player === state.me) at(d.house).myBallots += 1;
  },
  ballots(state, d, at) {
    for (const [h, count] of Object.entries(d.votes)) at(Number(h)).votes = count;
    state.ballotsOut = true;
    state.stage = "lynched";
  },
};

/** A bet's coin is kept (face down), or picked for a bettor who did not choose. */
function kept(state, d) {
  if (state.bets[d.player]) state.bets[d.player].coin = d.kept;
  if (d.player === state.me) state.drawn = null;
  if (d.player === state.keeping) state.keeping = null;
}

/** What the public table tells (`view.public`): who is Burgomaster, every character
 * and chest once the game's end has turned them face up, and the end (`over`: the
 * winners, the scores and their parts, every bet with its coin, every character). */
function fromPublic(page, state, at) {
  const table = publicTable(page);
  state.burgomaster = holderOf(page, BURGOMASTER);
  const characters = {};
  for (const player of table.players) {
    for (const shown of player.houses || []) {
      const one = at(shown.house);
      if (shown.death) died(state, one, shown.death);
      if (shown.character !== null) characters[shown.house] = shown.character;
      if (shown.character !== null && one.how !== "own") Object.assign(one, { character: shown.character, how: "end" });
      if (shown.chest !== null && one.chestHow !== "own") Object.assign(one, { chest: shown.chest, chestHow: "end" });
    }
  }
  const end = table.end;
  if (!end) return;
  state.over = { ...end, characters };
  state.stage = "over";
  for (const [seat, [target, coin]] of Object.entries(end.bets || {})) state.bets[seat] = { target, coin };
  state.drawn = null;
}

/** A house's character died (`death`: its cause, phase and number, as the table
 * tells it): the Werewolf's claw stays on it until the next night begins (night N
 * comes before day N), a lynch shows until the next day begins. */
function died(state, one, death) {
  one.dead = death.cause;
  if (death.cause === "werewolf" && state.night <= death.number) one.claw = true;
  const dayAfter = death.phase === "day" ? state.day > death.number : state.day >= death.number;
  if (death.cause === "vote" && !dayAfter) one.lynched = true;
}

/** Whose turn it is in a turn-by-turn step, as anyone at the table can tell: the bets
 * and the first voting's tokens go from the Burgomaster clockwise (bets: those who have
 * not bet yet, once a day; tokens: every player, twice). Null when nobody can tell. */
export function turnOf(state) {
  const n = state.n;
  const first = state.burgomaster;
  if (first === null || !n) return null;
  if (state.stage === "betting") {
    if (state.drawn) return null; // this seat is choosing its coin
    for (let k = 0; k < n; k++) {
      const seat = (first + k) % n;
      if (!(seat in state.bets) && !state.passed.has(seat)) return { step: "betting", seat };
    }
    return { step: "first_voting", seat: first };
  }
  if (state.stage === "first_voting" && state.tokensLaid < 2 * n) {
    return { step: "first_voting", seat: (first + (state.tokensLaid % n)) % n };
  }
  return null;
}

/** Living characters of a seat. */
export function living(state, seat) {
  return [2 * seat, 2 * seat + 1].filter((h) => state.houses[h] && !state.houses[h].dead).length;
}

/** The room's finished games and their points for the match, as the lobby tells them
 * (`results`: every game of the room, however late this page arrived). A game's
 * `scores` are its match points already (src/lupus/lupusburg/match.py): a winning
 * Werewolf scores the number of players, everybody else nothing. */
export function matchGames(page) {
  const games = {};
  for (const ended of page.lobby?.results || []) {
    games[ended.game] = { points: ended.scores, winner: ended.winner };
  }
  return games;
}

/** A house in words: its player's first or second ("Ben's second house"). */
export function houseName(player, house) {
  return t(house % 2 ? "lb_house_second" : "lb_house_first", { player });
}

/** The rulebook's name for the Burgomaster. */
export function burgomasterTitle(page) {
  return page.book?.names?.burgomaster || t("lb_burgomaster");
}
