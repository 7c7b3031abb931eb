// Lupusburg's table as this seat knows it, drawn from its view alone: the day as the
// whole table saw it (`view.public.board`: the bag, the privilege, the bets, the tokens,
// the suspects, the ballots, whose turn it is), the houses, the Burgomaster and the end
// (`view.public`), and what this seat alone knows (`view.own`: its characters and
// chests, what it was shown or peeked at, its claw, coins and ballots). The server
// reads both from the events (src/lupus/lupusburg/board.py, own.py): nothing here
// reads the event log, and nothing knows more than the view says. Houses are ints, a
// player's are 2 * seat and 2 * seat + 1; map keys come as strings.

import { t } from "./i18n.js";
import { holderOf, publicTable } from "./table.js";

const BURGOMASTER = "burgomaster"; // the title's id in `view.public`

const NO_OWN = { characters: {}, chests: {}, claw: null, drawn: null, coin: null, ballots: {} };

/** One house as this seat knows it (`shown`: the public table's; `board`, `own`: the
 * view's). `how`: own, seen (the privilege), shown (to this seat) or end; `chestHow`:
 * own, peeked (the Thief's) or end. */
function house(shown, board, own) {
  const number = shown.house;
  const mine = own.characters[number] || null;
  const chest = own.chests[number] || null;
  const character = shown.character !== null && mine?.how !== "own" ? { character: shown.character, how: "end" } : mine;
  const box = shown.chest !== null && chest?.how !== "own" ? { chest: shown.chest, how: "end" } : chest;
  const suspect = board.suspects.indexOf(number);
  return {
    number,
    owner: Math.floor(number / 2),
    nth: (number % 2) + 1,
    character: character ? character.character : null,
    how: character ? character.how : null,
    chest: box ? box.chest : null,
    chestHow: box ? box.how : null,
    dead: shown.death ? shown.death.cause : null,
    claw: own.claw === number || board.slaughtered === number,
    looked: board.looked === number, // the Burgomaster's privilege, today
    tokens: (board.tokens[number] || []).length,
    tokenBy: board.tokens[number] || [], // who laid them, in turn
    suspect: suspect === 0 ? "paw" : suspect === 1 ? "fur" : null,
    suspectTokens: board.suspect_tokens[number] ?? null,
    myBallots: own.ballots[number] || 0, // this seat's secret ballots against it, today
    votes: board.votes ? (board.votes[number] ?? null) : null, // the second voting, once revealed
    lynched: board.lynched === number,
  };
}

export function readTable(page) {
  const table = publicTable(page);
  const board = table.board;
  if (!board) return { n: 0, houses: [] }; // (no Lupusburg view yet)
  const own = page.view?.own || NO_OWN;
  const state = {
    me: page.seat,
    n: table.players.length,
    board, // the day as the table saw it (its stage, privilege, tokens, suspects...)
    coins: board.coins,
    burgomaster: holderOf(page, BURGOMASTER),
    houses: [],
    bets: {}, // seat -> {target, coin (null: face down / unknown)}
    drawn: own.drawn, // the coins in this seat's hand (drawn, not yet kept)
    over: null,
  };
  // The bag as the table counts it, less the coins in this seat's hand but the one it keeps.
  state.bag = Math.max(0, board.bag - (own.drawn ? own.drawn.length - 1 : 0));
  const characters = {};
  for (const player of table.players) {
    for (const shown of player.houses || []) {
      state.houses[shown.house] = house(shown, board, own);
      if (shown.character !== null) characters[shown.house] = shown.character;
    }
  }
  for (const [seat, target] of Object.entries(board.bets)) {
    state.bets[seat] = { target, coin: Number(seat) === page.seat ? own.coin : null };
  }
  if (table.end) ended(state, table.end, characters);
  return state;
}

/** The end (`over`: the winners, the scores and their parts, every bet with its coin,
 * every character), as the public table tells it. */
function ended(state, end, characters) {
  state.over = { ...end, characters };
  for (const [seat, [target, coin]] of Object.entries(end.bets || {})) state.bets[seat] = { target, coin };
  state.drawn = null;
}

/** Whose turn it is in a turn-by-turn step, as anyone at the table can tell
 * (`board.turn`), but while this seat holds the coins it drew: it is choosing. */
export function turnOf(state) {
  if (state.board.stage === "betting" && state.drawn) return null;
  return state.board.turn;
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
