// Lupusburg's table (issue 14, item 6): each player's two houses, the claw, the
// Burgomaster, the bag and the bets, the votings' tokens. Drawn from the seat's view.

import { h } from "./dom.js";

export function lupusburgBoard(page) {
  return null;
}
