// Before the first game: the room's code, link and QR code, its seats, and the host's
// controls (kick, reorder, bots, the timers and other settings, start).

import { h } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { hostPanel, seatControls } from "./host.js";
import { tableEditor } from "./lobby_table.js";
import { timersCard, timersEditor } from "./timers.js";

export function lobbyScreen(page) {
  const lobby = page.lobby;
  const link = `${location.origin}/?room=${lobby.room}`;
  const book = page.book;
  const free = lobby.seats.filter((s) => s === null).length;
  const leader = lobby.mode === "leader";
  return h(
    "section",
    { class: "lobby", "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title" }, book ? book.name : lobby.rules),
    // A game leader's table has no phones to invite: its players sit at his cards.
    leader
      ? h("div", { class: "card" }, h("p", {}, t("leader_lobby")), h("p", { class: "room-code", "aria-label": t("room_code") }, lobby.room))
      : h(
      "div",
      { class: "invite card" },
      h("p", {}, t("invite")),
      h("p", { class: "room-code", "aria-label": t("room_code") }, lobby.room),
      h("img", { class: "qr", src: `/api/rooms/${lobby.room}/qr.svg`, alt: t("qr_alt", { link }), width: 180, height: 180 }),
      h("p", {}, h("a", { href: link, class: "join-link" }, link)),
      ...shareControls(page, link),
    ),
    deckList(page),
    page.host && lobby.status === "lobby" ? tableEditor(page) : null,
    h("h3", {}, t("seats_title", { taken: lobby.players - free, players: lobby.players })),
    page.host && free && lobby.status === "lobby" ? botKind(page) : null,
    h("ol", { class: "seats" }, lobby.seats.map((seat, number) => seatRow(page, seat, number))),
    leader ? null : page.host && lobby.status !== "playing" ? timersEditor(page) : timersCard(page),
    // (everyone knows before the game whether its decisions may leave the server)
    lobby.allow_export ? h("p", { class: "hint", id: "export-allowed" }, t("export_allowed")) : null,
    page.host ? hostControls(page, free) : h("p", { class: "hint" }, t("wait_for_host")),
    leader ? null : hostPanel(page),
  );
}

/** "Copy the link" that works on any address: the clipboard where the page may use it
 * (a secure context: https, or this very machine), else the link selected in a
 * read-only field and copied the old way, else left selected with words to copy it;
 * and the phone's share sheet where it has one. What happened is said by the button,
 * not only in a toast. */
function shareControls(page, link) {
  const field = h("input", { id: "join-link-field", class: "join-link-field", readonly: true, value: link, hidden: true, "aria-label": t("copy_link") });
  const status = h("p", { class: "hint", id: "copy-status", role: "status" });
  const copied = () => {
    status.textContent = t("copied");
    page.toast(t("copied"));
  };
  const fallback = () => {
    field.hidden = false;
    field.focus();
    field.select();
    field.setSelectionRange(0, link.length);
    let done = false;
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
    if (done) copied();
    else status.textContent = t("copy_manually");
  };
  const copy = () => {
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).then(copied, fallback);
    else fallback();
  };
  const share = navigator.share
    ? h(
        "button",
        {
          type: "button",
          class: "secondary",
          id: "share-link",
          onclick: () => navigator.share({ title: page.book?.name || "", text: t("share_text"), url: link }).catch(() => {}),
        },
        t("share_link"),
      )
    : null;
  return [
    h("div", { class: "actions" }, h("button", { type: "button", class: "secondary", id: "copy-link", onclick: copy }, t("copy_link")), share),
    field,
    status,
  ];
}

/** Ask before something happens that the host may not have meant (a bot taking a
 * seat): a modal dialog in plain words; resolves to true for yes. */
export function ask(text, yes, no) {
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    const dialog = h(
      "dialog",
      { class: "confirm card", id: "confirm", "aria-labelledby": "confirm-text" },
      h("p", { id: "confirm-text" }, text),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "primary", id: "confirm-yes", onclick: () => done(true) }, yes),
        h("button", { type: "button", class: "secondary", id: "confirm-no", onclick: () => done(false) }, no),
      ),
    );
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      done(false);
    });
    document.body.append(dialog);
    if (dialog.showModal) dialog.showModal();
    else dialog.setAttribute("open", "");
  });
}

/** The room's options in words: each one its host changed from the rulebook's, by the
 * rulebook's own explanation of it (the house rule that lifts werewolf's minimum says
 * what it does, never its id). */
function optionLines(page) {
  const specs = page.book?.option_specs || {};
  const lines = [];
  for (const [key, value] of Object.entries(page.lobby.options || {})) {
    const spec = specs[key];
    if (!spec || value === spec.default) continue;
    const help = spec.help || "";
    if (spec.type === "bool") lines.push(value ? t("option_on", { help }) : t("option_off", { help }));
    else lines.push(t("option_value", { help, value: spec.labels?.[value] || String(value) }));
  }
  if (!lines.length) return null;
  return h("div", { class: "room-options", id: "room-options" }, h("h4", {}, t("options")), h("ul", {}, lines.map((line) => h("li", {}, line))));
}

export function deckList(page) {
  const book = page.book;
  const composition = page.lobby.composition;
  return h(
    "div",
    { class: "deck" },
    h("h3", {}, t("cards")),
    optionLines(page),
    h(
      "ul",
      { class: "cards" },
      Object.entries(composition).map(([rid, count]) => {
        const role = book?.roles?.[rid];
        return h(
          "li",
          { class: "card-role" },
          h("span", { class: "count" }, `${count} ×`),
          " ",
          role ? role.name : rid,
          role?.about ? h("span", { class: "about" }, ` — ${role.about}`) : null,
        );
      }),
    ),
  );
}

function seatRow(page, seat, number) {
  const lobby = page.lobby;
  const controls = [];
  // Before a game (the first, or the next after "Play again") the host arranges seats.
  const started = lobby.status !== "lobby";
  if (page.host && !started) {
    if (number > 0) controls.push(h("button", { type: "button", class: "small", onclick: () => page.send({ type: "swap", seat: number, other: number - 1 }), "aria-label": t("move_up_n", { n: number + 1 }) }, "↑"));
    if (seat && number !== lobby.host_seat) controls.push(h("button", { type: "button", class: "small", onclick: () => page.send({ type: "kick", seat: number }) }, t("kick")));
    if (!seat) {
      const kind = () => document.getElementById("bot-kind")?.value || "heuristic";
      const add = async () => {
        const which = kind();
        const yes = await ask(t("bot_confirm", { n: number + 1, kind: t(`fill_${which}`) }), t("bot_confirm_yes"), t("cancel"));
        if (yes) page.send({ type: "add_bot", seat: number, kind: which }).catch(() => {});
      };
      controls.push(h("button", { type: "button", class: "small", onclick: add }, t("add_bot")));
    }
  }
  controls.push(...seatControls(page, seat, number));
  const you = number === page.seat;
  return h(
    "li",
    { class: `seat${you ? " you" : ""}` },
    h("span", { class: "seat-name" }, seat ? seat.name : t("free_seat")),
    seat?.bot ? h("span", { class: "tag" }, t(`bot_${seat.bot}`)) : null,
    you ? h("span", { class: "tag" }, t("you")) : null,
    // (a game leader's seats are at his table, on no device: never "away")
    seat && !seat.bot && !seat.connected && lobby.mode !== "leader" ? h("span", { class: "tag muted" }, t("away")) : null,
    number === lobby.host_seat ? h("span", { class: "tag" }, t("host")) : null,
    h("span", { class: "controls" }, controls),
  );
}

/** How a kind of bot that fills the empty seats reads ("with AI players" for many). */
const fillText = (kind) => t(kind === "llm" ? "fill_with_llm" : `fill_${kind}`);

function hostControls(page, free) {
  const fill = h(
    "select",
    { id: "fill" },
    h("option", { value: "heuristic" }, t("fill_heuristic")),
    h("option", { value: "random" }, t("fill_random")),
    page.lobby.ai ? h("option", { value: "llm" }, fillText("llm")) : null,
  );
  // A refused start (a deck the engine will not deal) is said by the button.
  const problem = h("p", { class: "problem", role: "alert", id: "start-problem" });
  return h(
    "div",
    { class: "host card" },
    free
      ? h("div", { class: "field" }, h("label", { for: "fill" }, t("fill_label", { count: free })), fill)
      : null,
    h(
      "button",
      {
        type: "button",
        class: "primary",
        id: "start",
        onclick: async () => {
          // Bots take the empty seats only once the host said yes to it in words.
          if (free) {
            const kind = fillText(fill.value);
            const yes = await ask(t("fill_confirm", { count: free, kind }), t("fill_confirm_yes"), t("cancel"));
            if (!yes) return;
          }
          const start = free ? { type: "start", fill: fill.value } : { type: "start" };
          if (page.handDeal?.on) start.deal = page.handDeal.deal();
          problem.textContent = "";
          page.send(start).catch((error) => {
            if (error?.code && error.code !== "disconnected") problem.textContent = refusal(error);
          });
        },
      },
      t("start"),
    ),
    problem,
    page.lobby.mode === "leader" && page.book
      ? page.book.family === "lupusburg"
        ? housesDeal(page)
        : handDeal(page)
      : null,
  );
}

/** A game leader who shuffled and dealt his own cards says who got which (the server
 * checks it is the room's deck); otherwise the server deals and his page tells him. */
function handDeal(page) {
  const lobby = page.lobby;
  const deck = Object.entries(lobby.composition).filter(([, n]) => n > 0);
  const cards = deck.reduce((sum, [, n]) => sum + n, 0);
  const state = (page.handDeal ||= {
    on: false,
    roles: lobby.seats.map(() => deck[0][0]),
    extra: Array(Math.max(0, cards - lobby.players)).fill(deck[0][0]),
    deal() {
      return { roles: this.roles, extra_cards: this.extra };
    },
  });
  const choose = (id, label, value, set) => cardSelect(page, deck, id, label, value, set);
  return h(
    "details",
    { class: "hand-deal", open: state.on, ontoggle: (event) => (state.on = event.target.open) },
    h("summary", {}, t("hand_deal")),
    h("p", { class: "hint" }, t("hand_deal_help")),
    lobby.seats.map((seat, number) =>
      choose(`hand-${number}`, seat ? seat.name : t("seat_n", { n: number + 1 }), state.roles[number], (v) => (state.roles[number] = v)),
    ),
    state.extra.map((card, index) =>
      choose(`hand-extra-${index}`, t("hand_extra", { n: index + 1 }), card, (v) => (state.extra[index] = v)),
    ),
  );
}

/** A labelled select of `options` ([value, text] pairs); `set` gets the value chosen,
 * as a string. */
function selectField(id, label, options, value, set, kind = "field") {
  const select = h(
    "select",
    { id, onchange: (event) => set(event.target.value) },
    options.map(([v, text]) => h("option", { value: String(v) }, text)),
  );
  select.value = String(value);
  return h("div", { class: kind }, h("label", { for: id }, label), select);
}

/** A select of the deck's cards, by their names in the rulebook. */
function cardSelect(page, deck, id, label, value, set) {
  const cards = deck.map(([rid]) => [rid, page.book.roles[rid]?.name || rid]);
  return selectField(id, label, cards, value, set);
}

/** Lupusburg's deal by hand: each player's two characters (under his first and second
 * house), which house hides his chest, and who is the first Burgomaster. */
function housesDeal(page) {
  const lobby = page.lobby;
  const deck = Object.entries(lobby.composition).filter(([, n]) => n > 0);
  const plain = deck.reduce((most, entry) => (entry[1] > most[1] ? entry : most))[0];
  const state = (page.handDeal ||= {
    on: false,
    characters: lobby.seats.map(() => [plain, plain]),
    chests: lobby.seats.map(() => 1),
    burgomaster: 0,
    deal() {
      return { characters: this.characters, chests: this.chests, burgomaster: this.burgomaster };
    },
  });
  const name = (number) => lobby.seats[number]?.name || t("seat_n", { n: number + 1 });
  const title = page.book.names?.burgomaster || t("lb_burgomaster");
  const numberSelect = (id, label, options, value, set, kind) =>
    selectField(id, label, options, value, (v) => set(Number(v)), kind);
  return h(
    "details",
    { class: "hand-deal", open: state.on, ontoggle: (event) => (state.on = event.target.open) },
    h("summary", {}, t("hand_deal")),
    h("p", { class: "hint" }, t("hand_deal_houses_help", { title })),
    lobby.seats.map((seat, number) =>
      h(
        "fieldset",
        { class: "hand-houses" },
        h("legend", {}, name(number)),
        [0, 1].map((house) =>
          cardSelect(
            page,
            deck,
            `hand-${number}-${house + 1}`,
            t("hand_house", { n: house + 1 }),
            state.characters[number][house],
            (v) => (state.characters[number][house] = v),
          ),
        ),
        numberSelect(
          `hand-chest-${number}`,
          t("hand_chest"),
          [1, 2].map((n) => [n, t("hand_house", { n })]),
          state.chests[number],
          (v) => (state.chests[number] = v),
          "field chest",
        ),
      ),
    ),
    numberSelect(
      "hand-burgomaster",
      t("hand_burgomaster", { title }),
      lobby.seats.map((_, number) => [number, name(number)]),
      state.burgomaster,
      (v) => (state.burgomaster = v),
    ),
  );
}

/** Which bot "Add a bot" seats (kept across redraws of the lobby): an AI player too
 * when the server has a model for them. */
function botKind(page) {
  const select = h(
    "select",
    { id: "bot-kind", onchange: (event) => (page.botKind = event.target.value) },
    h("option", { value: "heuristic" }, t("fill_heuristic")),
    h("option", { value: "random" }, t("fill_random")),
    page.lobby.ai ? h("option", { value: "llm" }, t("fill_llm")) : null,
  );
  select.value = page.botKind || "heuristic";
  return h("div", { class: "field" }, h("label", { for: "bot-kind" }, t("bot_kind")), select);
}
