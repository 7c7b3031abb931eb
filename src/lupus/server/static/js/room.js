// A room's page: one connection, the room's state as the server sends it, and the
// screen drawn from that state alone (the lobby before the first game, then the game).

import { Connection } from "./connection.js";
import { announce, fill, h } from "./dom.js";
import { lang, refusal, t } from "./i18n.js";
import { phoneHabits } from "./alerts.js";
import { chatPanel } from "./chat.js";
import { helpLink } from "./help.js";
import { lobbyScreen } from "./lobby.js";
import { mergeFrame } from "./merge.js";
import { Narrator } from "./narrator.js";
import { gameScreen } from "./play.js";
import { forget, keep, kept } from "./tokens.js";

export class RoomPage {
  /** `screen`: a screen that narrates the room (`/?screen=CODE`): a spectator's page
   * that reads the public story aloud, entered with the screen's token. */
  constructor(app, code, { screen = false } = {}) {
    this.app = app;
    this.code = code;
    this.screen = screen;
    this.seat = undefined; // a seat number, -1 (a game leader) or null (a spectator)
    this.welcomeHost = false; // what `welcome.host` said on entering
    this.lobby = null;
    this.view = null; // the latest view frame, its events and lines merged in
    this.events = [];
    this.lines = [];
    this.told = []; // each event's sentence: its index in `lines` (null: none)
    this.chat = [];
    this.book = null;
    this.bookAsked = null; // the rulebook whose entry was asked for last (loadBook)
    this.entering = null;
    this.revealed = false;
    this.busy = false;
    this.notice = "";
    this.lastPrompts = "";
    this.skew = 0; // the server's clock minus this phone's, in seconds
    this.skewTime = null; // the frame's time it was taken from
    this.connection = new Connection(
      () => this.entering,
      (frame) => this.receive(frame),
      (state) => this.connectionState(state),
    );
  }

  /** Whether this connection holds host powers now: its lobby says so (they pass on
   * when the host is gone, and may come back); before the first lobby, the welcome. */
  get host() {
    const said = this.lobby?.host;
    return said === undefined ? this.welcomeHost : said;
  }

  async start() {
    document.getElementById("where").textContent = this.code;
    if (this.screen) {
      await this.startScreen();
      return;
    }
    // A join link the host made for this seat (`new_link`) carries its token: kept like
    // the one a join gives, and taken out of the address bar at once.
    const params = new URLSearchParams(location.search);
    const fragment = new URLSearchParams(location.hash.slice(1));
    const given = params.get("token") || fragment.get("token");
    if (given) {
      keep(this.code, given, false);
      history.replaceState(null, "", `/?room=${encodeURIComponent(this.code)}`);
    }
    const mine = kept(this.code);
    if (mine) {
      this.entering = { type: "rejoin", room: this.code, token: mine.token, lang: lang() };
      this.connection.open();
      this.render();
      return;
    }
    const answer = await fetch(`/api/rooms/${encodeURIComponent(this.code)}`);
    if (!answer.ok) {
      fill(this.app, h("section", { class: "card" }, h("h2", {}, t("no_room")), h("p", {}, t("no_room_help")), h("a", { href: "/", class: "button" }, t("home"))));
      return;
    }
    const lobby = await answer.json();
    this.askName(lobby);
  }

  /** A narrating screen: its token from the link the host's page showed (kept, and
   * taken out of the address bar at once), then a spectator's connection with it. */
  async startScreen() {
    const key = `lupus:screen:${this.code}`;
    const given = new URLSearchParams(location.hash.slice(1)).get("token");
    if (given) {
      localStorage.setItem(key, given);
      history.replaceState(null, "", `/?screen=${encodeURIComponent(this.code)}`);
    }
    const token = localStorage.getItem(key);
    if (!token) {
      this.screenGone();
      return;
    }
    // The story in the room's own language, the one its voice speaks (the page's
    // words stay in this browser's).
    const answer = await fetch(`/api/rooms/${encodeURIComponent(this.code)}`);
    const room = answer.ok ? await answer.json() : null;
    this.entering = { type: "watch", room: this.code, token, lang: room?.lang || lang() };
    this.narrator = new Narrator(this, null);
    this.connection.open();
    this.render();
  }

  /** This screen narrates no more (the host chose another narrator, or its link is
   * an old one): said plainly, and nothing more is tried. */
  screenGone() {
    localStorage.removeItem(`lupus:screen:${this.code}`);
    this.connection.close();
    if (this.narrator) this.narrator.stop();
    this.narrator = null;
    this.entering = null;
    this.shell = null;
    fill(this.app, h("section", { class: "card screen-gone" }, h("h2", {}, t("screen_title", { code: this.code })), h("p", {}, t("screen_gone"))));
  }

  /** A newcomer: a name to join with, or watching (once the game started). */
  askName(lobby) {
    const name = h("input", { id: "name", maxlength: 24, required: true, autocomplete: "nickname" });
    const problem = h("p", { class: "problem", role: "alert" });
    const open = lobby.status === "lobby" && lobby.seats.some((s) => s === null);
    const lost = sessionStorage.getItem(`lupus:lost:${this.code}`);
    sessionStorage.removeItem(`lupus:lost:${this.code}`);
    const join = (event) => {
      event.preventDefault();
      // A blank name, or one already at the table, is told next to the field at once
      // (the server checks again, and its refusal is shown there too).
      const wanted = name.value.trim();
      const key = (text) => text.normalize("NFC").toLocaleLowerCase();
      if (!wanted) problem.textContent = t("name_blank");
      else if (lobby.seats.some((s) => s && key(s.name) === key(wanted))) problem.textContent = t("name_taken");
      else problem.textContent = "";
      if (problem.textContent) {
        name.focus();
        return;
      }
      this.entering = { type: "join", room: this.code, name: wanted, lang: lang() };
      this.joinProblem = problem;
      this.connection.open();
    };
    const watch = () => {
      this.entering = { type: "watch", room: this.code, lang: lang() };
      this.connection.open();
      this.render();
    };
    fill(
      this.app,
      h(
        "section",
        { class: "card" },
        h("h2", {}, t("room_title", { code: this.code })),
        lost ? h("p", { class: "problem", role: "alert", id: "seat-lost" }, t("seat_lost")) : null,
        open
          ? h(
              "form",
              { onsubmit: join, novalidate: true },
              h("label", { for: "name" }, t("your_name")),
              name,
              problem,
              h("button", { type: "submit", class: "primary" }, t("join")),
            )
          : h("p", {}, t("room_closed")),
        lobby.spectators ? h("button", { type: "button", class: "secondary", onclick: watch }, t("watch")) : null,
      ),
    );
    if (open) name.focus();
  }

  connectionState(state) {
    this.online = state === "open";
    const where = document.getElementById("where");
    where.textContent = state === "open" ? this.code : `${this.code} · ${t("reconnecting")}`;
  }

  receive(frame) {
    // (a screen's own connection is its narrator's: the public view)
    if (this.screen && this.narrator && frame.type === "view") this.narrator.receive(frame);
    switch (frame.type) {
      case "welcome":
        this.seat = frame.seat;
        this.welcomeHost = frame.host;
        if (frame.token) {
          keep(this.code, frame.token, frame.host);
          this.entering = { type: "rejoin", room: this.code, token: frame.token, lang: lang() };
        }
        // What follows is everything from scratch.
        this.chat = [];
        if (this.chatView) this.chatView.clear();
        break;
      case "lobby":
        this.lobby = frame;
        this.loadBook(frame.rules);
        this.narrate();
        break;
      case "view":
        // How far this phone's clock is from the server's (a phone's may be minutes
        // off): a deadline is the server's time, counted down on this clock. A
        // frame's time is when the latest public event was shown, sent to every
        // phone at once; a frame of this phone's own sent later (its holder tapped)
        // carries the same time, and taken as the server's clock it would count
        // this phone's deadline seconds behind its neighbours': only a new time counts.
        if (typeof frame.time === "number" && frame.time !== this.skewTime) {
          this.skewTime = frame.time;
          this.skew = frame.time - Date.now() / 1000;
        }
        this.merge(frame);
        break;
      case "chat":
        this.chat.push(frame);
        if (this.chatView) this.chatView.add(frame);
        return;
      case "error":
        this.refused(frame);
        return;
      default:
        return;
    }
    this.render();
  }

  refused(frame) {
    if (this.screen && (frame.code === "bad_token" || frame.code === "not_allowed")) {
      this.screenGone();
      return;
    }
    if (frame.code === "bad_token" || (frame.code === "unknown_room" && this.entering?.type === "rejoin")) {
      // (said once more on the page that comes next: why this phone lost its seat)
      if (frame.code === "bad_token") sessionStorage.setItem(`lupus:lost:${this.code}`, "1");
      forget(this.code);
      this.connection.close();
      this.entering = null;
      location.reload();
      return;
    }
    if (this.entering?.type === "join" && this.seat === undefined) {
      this.connection.close();
      // In the reader's words where the interface has them (a full room, a taken
      // name), else the server's own.
      const word = t(`refused_${frame.code}`);
      if (this.joinProblem) this.joinProblem.textContent = word === `refused_${frame.code}` ? refusal(frame) : word;
      return;
    }
    if (frame.code === "stale" || frame.code === "illegal") return; // the next view comes
    this.toast(refusal(frame));
  }

  toast(text) {
    const toast = document.getElementById("toast");
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (toast.hidden = true), 4000);
  }

  async loadBook(rules) {
    if (this.book && this.book.id === rules) return;
    try {
      const books = await (await fetch(`/api/rulebooks?lang=${lang()}`)).json();
      this.book = books.find((b) => b.id === rules) || null;
    } finally {
      // (asked, found or not: a game screen waits for this, not for ever)
      this.bookAsked = rules;
      this.render();
    }
  }

  /** At one table, the narrator reads the public story aloud (narrator.js): this
   * phone if the lobby says so (the host's by default, or the seat the host chose),
   * on a spectator's connection of its own with this phone's token; otherwise this
   * phone is silent, and stops at once when the host chooses another. */
  narrate() {
    if (this.screen) return; // (a screen narrates from its own frames)
    const lobby = this.lobby;
    const mine = kept(this.code);
    const chosen = lobby.narrator || { by: "host", seat: null };
    let token = null;
    if (lobby.table && lobby.mode === "players" && mine) {
      if (chosen.by === "host" && this.host) token = mine.token;
      if (chosen.by === "seat" && chosen.seat !== null && chosen.seat === lobby.you) token = mine.token;
    }
    if (token === this.narratorToken) return;
    this.narratorToken = token;
    if (this.narrator) this.narrator.stop();
    this.narrator = null;
    if (token) {
      const narrator = new Narrator(this, token, () => {
        if (this.narrator !== narrator) return;
        this.narrator = null; // (its right taken back: the next lobby says who narrates)
        this.placeNarrator();
      });
      this.narrator = narrator;
      narrator.start();
    }
    this.placeNarrator();
  }

  /** The narrator's panel, at the top of the page. */
  placeNarrator() {
    if (this.top) fill(this.top, this.narrator?.element);
  }

  /** docs/protocol.md, "Merging". */
  merge(frame) {
    mergeFrame(this, frame);
    this.view = frame;
    this.busy = false;
    const prompts = JSON.stringify(frame.prompts);
    // What the seat chose is shown until another step asks it something new.
    if (this.mine && (frame.from === 0 || (frame.prompts.length && prompts !== this.mine.prompts))) this.mine = null;
    // (at one table a screen reader's voice is heard around it: at night every living
    // phone has its tap screen, and none says "your turn")
    const quiet = this.lobby?.table && frame.phase === "night";
    if (frame.waiting && prompts !== this.lastPrompts && !quiet) announce(t("your_turn"));
    this.lastPrompts = prompts;
  }

  /** The names of the seats, from the lobby. */
  name(seat) {
    const entry = this.lobby?.seats?.[seat];
    return entry ? entry.name : t("seat_n", { n: seat + 1 });
  }

  send(message) {
    return this.connection.send(message).catch((error) => {
      if (error.code && error.code !== "disconnected" && error.code !== "stale" && error.code !== "illegal") this.toast(refusal(error));
      throw error;
    });
  }

  act(verb, args, seat, label) {
    if (this.busy || !this.view) return;
    this.busy = true;
    if (seat === undefined) {
      const prompts = JSON.stringify(this.view.prompts);
      this.mine = { verb, args, label: label || verb, phase: this.view.phase, number: this.view.number, prompts };
    }
    this.render();
    const message = { type: "act", verb, args, state_id: this.view.state_id };
    if (seat !== undefined) message.seat = seat;
    this.send(message).catch(() => {
      this.busy = false;
      this.render();
    });
  }

  render() {
    if (this.entering === null) return;
    if (!this.lobby) {
      fill(this.app, h("p", { class: "card" }, t("connecting")));
      return;
    }
    if (!this.shell) {
      this.main = h("div", { class: "screen" });
      this.chatView = chatPanel(this);
      // (the narrator's panel on top of everything, where the table looks first)
      this.top = h("div", { class: "narrator-slot" });
      const side = h("div", { class: "side" }, this.screen ? null : this.chatView.element);
      this.shell = h("div", { class: "room" }, h("div", { class: "stage" }, this.top, this.main), side);
      fill(this.app, this.shell);
      this.placeNarrator();
      for (const line of this.chat) this.chatView.add(line);
    }
    // Each change redraws the screen: the keyboard's focus is put back on the same
    // control, so that a player using the keyboard is not sent back to the top.
    const focused = document.activeElement;
    const key = focused && this.main.contains(focused) ? focusKey(focused) : null;
    if (this.lobby.status === "lobby" || !this.view) fill(this.main, lobbyScreen(this));
    // (a game screen names its cards from the rulebook: drawn once it is here)
    else if (this.bookAsked !== this.lobby.rules) fill(this.main, h("p", { class: "card" }, t("connecting")));
    else fill(this.main, gameScreen(this));
    if (key && !this.main.contains(document.activeElement)) {
      const controls = this.main.querySelectorAll("button, a, input, select, textarea, summary");
      const again = [...controls].find((control) => focusKey(control) === key);
      if (again) again.focus();
    }
    // At one table people talk aloud: a chat panel would show a wolf's own channel to
    // his neighbour, so it is put away while a game is played.
    const playing = this.view && !this.view.finished && this.lobby.status !== "lobby";
    this.chatView.element.hidden = Boolean(this.lobby.table && playing && this.seat !== null && this.seat >= 0);
    // At one table by night a player's phone that narrates shows what every other phone
    // shows: its panel is put away until day (its voice goes on). On the host's phone
    // the panel is one of his controls, there at every step.
    const player = !this.screen && typeof this.seat === "number" && this.seat >= 0;
    this.top.hidden = Boolean(this.lobby.table && playing && this.view.phase === "night" && player && !this.host);
    this.top.classList.toggle("host", Boolean(this.host));
    this.chatView.update();
    phoneHabits(this);
    helpLink(this.lobby.rules);
  }
}

/** What identifies a control across redraws. */
function focusKey(control) {
  const data = control.dataset || {};
  if (data.focus) return data.focus;
  if (control.id) return `#${control.id}`;
  return [control.tagName, control.className, data.verb, data.args, control.textContent.trim()].join("|");
}
