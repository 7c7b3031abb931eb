// Lupusburg's table (issue 14, item 6): each player's two houses, the claw, the
// Burgomaster and his privilege, the bag and the bets, the votings' tokens, the suspects'
// evidence, the scores. Drawn from the seat's view only (lupusburg_state.js reads it):
// the day from the public board (`view.public.board`), the seat's own characters,
// chest and coin from its own part (`view.own`), shown when the player shows his card
// (as the role card does); every other house shows what the view tells this seat, no
// more. Where a prompt asks for a house, its tile is the button.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { actButton } from "./game_parts.js";
import { roleName } from "./outcome.js";
import { icon } from "./lupusburg_icons.js";
import { match, scores } from "./lupusburg_end.js";
import { burgomasterTitle, houseName, living, matchGames, readTable, turnOf } from "./lupusburg_state.js";

const HOUSE_VERBS = new Set(["peek", "claw", "privilege", "show", "token", "ballot"]);

/** What tapping a tile does, in a word or two (the prompt's own label says it whole). */
const TAP = {
  peek: () => t("lb_tap_peek"),
  claw: () => t("lb_tap_claw"),
  privilege: () => t("lb_tap_privilege"),
  show: () => t("lb_tap_show"),
  token: () => t("lb_tap_token"),
  ballot: () => t("lb_tap_ballot"),
};

/** What the open prompt asks, over the board. */
const ASK = {
  peek: () => t("lb_ask_peek"),
  claw: () => t("lb_ask_claw"),
  privilege: () => t("lb_ask_privilege"),
  show: () => t("lb_ask_show"),
  token: () => t("lb_ask_token"),
  ballot: () => t("lb_ask_ballot"),
  bet: () => t("lb_ask_bet"),
  keep: () => t("lb_ask_keep"),
};

const CAUSE = {
  werewolf: () => t("lb_slaughtered"),
  vote: () => t("lb_lynched"),
};

export function lupusburgBoard(page) {
  if (!page.view || !page.lobby) return null;
  const state = readTable(page);
  if (!state.n || !state.houses.length) return null;
  const acts = openActions(page);
  // The seat's secrets (its characters, chest, coin, what it was shown) are on screen
  // while its card is shown, and all of them once the game is over.
  // (at one table, only while the card is held pressed: a neighbour sees the screen)
  const open = (page.lobby?.table ? Boolean(page.holding) : page.revealed) || Boolean(state.over);
  const games = matchGames(page);
  return h(
    "section",
    { class: "lb-board card", "aria-labelledby": "lb-title", dataset: { stage: state.board.stage, day: String(state.board.day) } },
    h("h3", { id: "lb-title" }, t("lb_title")),
    summary(page, state),
    page.seat !== null && !open ? h("p", { class: "hint lb-secret-hint" }, t("lb_secret_hint")) : null,
    asking(page, state, acts),
    hand(page, state, acts),
    h(
      "ul",
      { class: "lb-lots" },
      Array.from({ length: state.n }, (_, seat) => lot(page, state, acts, open, seat)),
    ),
    state.over ? scores(page, state) : null,
    match(page, state, games),
  );
}

/** The seat's open prompts, by what they name: a house, a player to bet on, a coin. */
function openActions(page) {
  const acts = { houses: new Map(), bets: new Map(), keep: [], bare: [], verbs: [] };
  if (page.seat === null || page.view.finished) return acts;
  for (const prompt of page.view.prompts) {
    acts.verbs.push(prompt.verb);
    for (const choice of prompt.choices) {
      const arg = choice.args[0];
      const act = { verb: prompt.verb, args: choice.args, label: choice.label };
      if (HOUSE_VERBS.has(prompt.verb) && typeof arg === "number") {
        if (!acts.houses.has(arg)) acts.houses.set(arg, act);
      } else if (prompt.verb === "bet" && typeof arg === "number") acts.bets.set(arg, act);
      else if (prompt.verb === "keep") acts.keep.push(act);
      else if (!choice.args.length) acts.bare.push(act);
    }
  }
  return acts;
}

function houseOf(page, house) {
  return houseName(page.name(Math.floor(house / 2)), house);
}

function line(cls, picture, ...text) {
  return h("p", { class: `lb-line ${cls}` }, picture ? icon(picture) : null, h("span", {}, ...text));
}

function summary(page, state) {
  const title = burgomasterTitle(page);
  const rows = [];
  if (state.burgomaster !== null) {
    rows.push(line("lb-burgomaster-line", "crown", t("lb_burgomaster_is", { title, player: page.name(state.burgomaster) })));
  }
  const privilege = state.board.privilege;
  if (privilege && !state.over) {
    if (privilege.state === "used") rows.push(line("lb-privilege", "eye", t("lb_privilege_used", { title, house: houseOf(page, privilege.house) })));
    else if (privilege.state === "declined") rows.push(line("lb-privilege", "eye", t("lb_privilege_declined", { title })));
    else rows.push(line("lb-privilege", "eye", t("lb_privilege_none", { title })));
  }
  rows.push(line("lb-bag", "bag", t("lb_bag", { count: state.bag, total: state.coins.length, coins: state.coins.join(", ") })));
  const stage = stageLine(page, state);
  if (stage) rows.push(stage);
  return h("div", { class: "lb-summary" }, rows);
}

function stageLine(page, state) {
  const turn = turnOf(state);
  switch (state.board.stage) {
    case "betting": {
      // A bet is followed by its coin, kept face down: nobody else sees when, so the
      // last bettor may still be choosing his coin while the next one's turn shows.
      const keeping = state.board.keeping !== null && state.board.keeping !== page.seat ? state.board.keeping : null;
      if (turn?.step !== "betting") {
        return keeping === null ? null : line("lb-stage", "seal", t("lb_stage_keeping", { player: page.name(keeping) }));
      }
      if (turn.seat === page.seat) return null;
      const text =
        keeping === null
          ? t("lb_stage_betting", { player: page.name(turn.seat) })
          : t("lb_stage_betting_after", { before: page.name(keeping), player: page.name(turn.seat) });
      return line("lb-stage", "seal", text);
    }
    case "first_voting": {
      const total = 2 * state.n;
      const round = Math.min(2, Math.floor(state.board.laid / state.n) + 1);
      return line(
        "lb-stage",
        "token",
        t("lb_stage_first", { round, laid: state.board.laid, total }),
        turn && turn.seat !== page.seat ? ` ${t("lb_next", { player: page.name(turn.seat) })}` : "",
      );
    }
    case "second_voting": {
      const [paw, fur] = state.board.suspects;
      if (paw === undefined || fur === undefined) return null;
      return line("lb-stage", "ballot", t("lb_stage_second", { paw: houseOf(page, paw), fur: houseOf(page, fur) }));
    }
    case "lynched": {
      const lynched = state.houses.find((one) => one.lynched && one.votes !== null);
      return lynched ? line("lb-stage", "out", t("lb_stage_lynched", { house: houseOf(page, lynched.number) })) : null;
    }
    case "night":
      return state.board.day ? line("lb-stage", null, t("lb_stage_night")) : null;
    default:
      return null;
  }
}

/** What the seat is asked now, over the board, with the choices that name no house
 * (pass) at hand: the tiles, the seals and the coins below are the other buttons. */
function asking(page, state, acts) {
  const verb = acts.verbs.find((v) => ASK[v]);
  if (!verb) return null;
  return h(
    "div",
    { class: "lb-ask", role: "status" },
    h("p", {}, h("strong", {}, `${t("your_turn")}:`), " ", ASK[verb]()),
    acts.bare.length
      ? h(
          "div",
          { class: "lb-ask-buttons" },
          acts.bare.map((act) => actButton(page, act.verb, act, "secondary lb-pass")),
        )
      : null,
  );
}

/** The three coins drawn after a bet: keep one (face down under the seal). */
function hand(page, state, acts) {
  if (!state.drawn || page.seat === null) return null;
  const keep = new Map(acts.keep.map((act) => [act.args[0], act]));
  return h(
    "div",
    { class: "lb-hand" },
    h("p", {}, icon("bag"), " ", t("lb_drawn")),
    h(
      "div",
      { class: "lb-coins" },
      state.drawn.map((coin) => {
        const act = keep.get(coin);
        return act
          ? h(
              "button",
              {
                type: "button",
                class: "lb-coin",
                disabled: page.busy,
                "aria-label": act.label,
                dataset: { verb: act.verb, args: JSON.stringify(act.args) },
                onclick: () => page.act(act.verb, act.args),
              },
              String(coin),
            )
          : h("span", { class: "lb-coin" }, String(coin));
      }),
    ),
  );
}

function tag(cls, picture, text) {
  return h("span", { class: `tag ${cls}` }, picture ? icon(picture) : null, text);
}

function lot(page, state, acts, open, seat) {
  const me = seat === page.seat;
  const burgomaster = seat === state.burgomaster;
  const none = living(state, seat) === 0;
  const winner = state.over?.winners?.includes(seat);
  const turn = turnOf(state);
  const classes = ["lb-lot", me ? "you" : "", burgomaster ? "burgomaster" : "", none ? "out" : ""].filter(Boolean).join(" ");
  return h(
    "li",
    { class: classes, dataset: { seat: String(seat) } },
    h(
      "div",
      { class: "lb-who" },
      burgomaster ? icon("crown") : null,
      h("strong", { class: "lb-name" }, page.name(seat)),
      me ? tag("", null, t("you")) : null,
      burgomaster ? tag("lb-burgomaster", null, burgomasterTitle(page)) : null,
      none ? tag("lb-none", null, t("lb_no_character")) : null,
      winner ? tag("lb-winner", "star", t("lb_winner")) : null,
      !state.over && turn && turn.seat === seat && !me && state.board.keeping === null ? tag("lb-turn", null, t("lb_turn")) : null,
    ),
    seals(page, state, acts, open, seat),
    h(
      "div",
      { class: "lb-houses" },
      [2 * seat, 2 * seat + 1].map((number) => tile(page, state, acts.houses.get(number), open, state.houses[number])),
    ),
  );
}

/** His own seal (still in front of him, or on whom he bet) and the seals laid in front
 * of him; while the seat may bet, the button to bet on him. */
function seals(page, state, acts, open, seat) {
  const mine = state.bets[seat];
  let own;
  if (mine) {
    let coin;
    if (mine.coin === null) coin = t("lb_coin_face_down");
    else if (state.over || (seat === page.seat && open)) coin = t("lb_coin", { coin: mine.coin });
    else if (seat === page.seat) coin = t("lb_coin_hidden");
    else coin = t("lb_coin_face_down");
    own = h(
      "span",
      { class: "lb-seal used", dataset: { target: String(mine.target) } },
      icon("seal"),
      t("lb_seal_on", { player: page.name(mine.target) }),
      ` · ${coin}`,
    );
  } else {
    own = h("span", { class: "lb-seal unused" }, icon("seal"), t("lb_seal_unused"));
  }
  const before = Object.entries(state.bets)
    .filter(([, bet]) => bet.target === seat)
    .map(([from]) => page.name(Number(from)));
  const bet = acts.bets.get(seat);
  return h(
    "div",
    { class: "lb-seals" },
    own,
    before.length
      ? h("span", { class: "lb-before", dataset: { count: String(before.length) } }, icon("seal"), t("lb_seals_before", { players: before.join(", ") }))
      : null,
    bet
      ? h(
          "button",
          {
            type: "button",
            class: "lb-bet",
            disabled: page.busy,
            dataset: { verb: bet.verb, args: JSON.stringify(bet.args) },
            onclick: () => page.act(bet.verb, bet.args),
          },
          icon("seal"),
          bet.label,
        )
      : null,
  );
}

function mark(cls, picture, text, data) {
  return h("span", { class: `lb-mark ${cls}`, dataset: data || {} }, picture ? icon(picture) : null, text);
}

function tile(page, state, act, open, one) {
  const mine = one.owner === page.seat;
  let character;
  if (one.character && (open || one.how === "end")) {
    const note = one.how === "seen" ? t("lb_seen") : one.how === "shown" ? t("lb_shown") : "";
    character = h(
      "span",
      { class: `lb-character known lb-how-${one.how}`, dataset: { character: one.character } },
      roleName(page, one.character),
      note ? h("small", {}, ` (${note})`) : null,
    );
  } else if (one.character) character = h("span", { class: "lb-character secret" }, t("lb_hidden"));
  else if (one.dead) character = h("span", { class: "lb-character down" }, t("lb_face_down"));
  else character = h("span", { class: "lb-character unknown" }, t("lb_unknown"));
  const chestKnown = one.chest !== null && (open || one.chestHow === "end");
  const marks = [];
  if (chestKnown && one.chest) marks.push(mark("lb-chest", "chest", one.chestHow === "peeked" ? t("lb_chest_peeked") : t("lb_chest")));
  if (chestKnown && !one.chest) marks.push(mark("lb-no-chest", null, one.chestHow === "peeked" ? t("lb_no_chest_peeked") : t("lb_no_chest")));
  if (one.dead) marks.push(mark("lb-dead", "out", (CAUSE[one.dead] || (() => t("lb_out")))()));
  if (one.claw) marks.push(mark("lb-claw", "claw", t("lb_claw")));
  if (one.looked) marks.push(mark("lb-looked", "eye", t("lb_looked")));
  if (one.tokens) marks.push(mark("lb-tokens", "token", t("lb_tokens", { count: one.tokens }), { count: String(one.tokens) }));
  if (one.suspect) marks.push(mark("lb-suspect", one.suspect, one.suspect === "paw" ? t("lb_paw") : t("lb_fur"), { mark: one.suspect }));
  if (one.myBallots) marks.push(mark("lb-ballot", "ballot", t("lb_my_ballots", { count: one.myBallots }), { count: String(one.myBallots) }));
  if (one.votes !== null) marks.push(mark("lb-votes", null, t("lb_votes", { count: one.votes }), { count: String(one.votes) }));
  const classes = ["lb-house", mine ? "mine" : "", one.dead ? "dead" : "", one.suspect ? `suspect ${one.suspect}` : "", act ? "actionable" : ""]
    .filter(Boolean)
    .join(" ");
  const inside = [
    h("span", { class: "lb-house-name" }, icon("house"), houseOf(page, one.number)),
    character,
    marks.length ? h("span", { class: "lb-marks" }, marks) : null,
    act ? h("span", { class: "lb-act" }, `▶ ${TAP[act.verb]()}`) : null,
  ];
  const data = { house: String(one.number) };
  if (!act) return h("div", { class: classes, dataset: data }, inside);
  return h(
    "button",
    {
      type: "button",
      class: classes,
      disabled: page.busy,
      dataset: { ...data, verb: act.verb, args: JSON.stringify(act.args) },
      title: act.label,
      onclick: () => page.act(act.verb, act.args),
    },
    inside,
  );
}
