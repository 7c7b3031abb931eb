// What a game leader's page remembers of a game (leader.js): the deal done, the steps
// shown, the entries staged. The first survive a reload (session storage).

import { firstRecap } from "./leader_story.js";

const STORE = "lupus:leader:";

/** What the page remembers of this game for its leader: the deal done, the step shown
 * before the current one (the recap starts there), the entries staged. The first two
 * survive a reload (session storage); staged entries do not (nothing was sent). */
export function leaderState(page) {
  const game = page.view.game;
  if (page.leaderState?.game === game) return page.leaderState;
  let kept = {};
  try {
    kept = JSON.parse(sessionStorage.getItem(STORE + game) || "{}");
  } catch {
    kept = {};
  }
  page.leaderState = {
    game,
    dealt: Boolean(kept.dealt),
    prev: kept.prev ?? null,
    cur: kept.cur ?? null,
    prevSeen: kept.prevSeen ?? null,
    seen: kept.seen ?? null,
    stage: { start: null, entries: new Map() },
    sending: false,
    problem: "",
  };
  return page.leaderState;
}

export function save(state) {
  try {
    sessionStorage.setItem(STORE + state.game, JSON.stringify({ dealt: state.dealt, prev: state.prev, cur: state.cur, prevSeen: state.prevSeen, seen: state.seen }));
  } catch {
    // private browsing: the page forgets on reload, nothing worse
  }
}

/** Move the recap on when a new step opens: it covers the steps since the one shown,
 * from what was on screen when the leader confirmed it (`seen`, an event count); on a
 * page that showed none, from where the server's script says (`before`). */
export function follow(page, state, start) {
  if (state.cur === start) return;
  state.prev = state.cur ?? firstRecap(page, start);
  state.prevSeen = state.cur === null ? null : state.seen;
  state.cur = start;
  state.seen = null;
  state.problem = "";
  save(state);
}

/** Keep the keyboard's place: the screen is drawn anew at every change. */
