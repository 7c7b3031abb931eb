// At one table, one device is the game master's voice: it reads the public story aloud,
// in the room's language, and shows what it says (docs/protocol.md, "Who narrates").
// It listens on a spectator's connection (`watch` with a token: the host's, the chosen
// seat's or a screen's), so nothing private of any seat can ever be read out; a screen
// page, itself a spectator's, feeds it its own frames instead.
//
// What it says is the server's choice (`view.spoken`, a mark per line): the page never
// reads the events again to decide. It never falls behind the game: a frame that begins
// a new step drops whatever was not said yet of the earlier ones (speechSynthesis.cancel)
// before its own lines, so its queue holds the current step's lines and no more. The
// queue is on the panel (`data-step`, `data-queued`) and `window.lupusNarrator.state()`.

import { Connection } from "./connection.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { qrElement } from "./qr.js";

const VOICES = { en: "en-GB", sv: "sv-SE" };
const SHOWN = 4; // the lines the panel shows, the latest last
// The steps a game's opening holds at most (its start, its first phase, that phase's
// first step): a whole view with more is a game under way, said from its current step.
const OPENING = 3;

export class Narrator {
  /**
   * @param {object} page the room's page (its `code` and `lobby`)
   * @param {string|null} token the token to `watch` with; null: fed by `receive`
   * @param {() => void} gone called when the server took the narrator's right back
   */
  constructor(page, token, gone = () => {}) {
    this.page = page;
    this.gone = gone;
    this.said = [];
    this.game = null;
    this.step = 0; // the steps begun: each line queued is one step's
    this.queue = []; // [{text, step}] handed to the voice and not said yet
    this.speaking = true;
    this.element = h("div", { class: "narrator card", id: "narrator", role: "log", "aria-live": "polite" });
    this.connection = token
      ? new Connection(
          () => ({ type: "watch", room: page.code, token, lang: page.lobby?.lang }),
          (frame) => this.receive(frame),
          () => {},
        )
      : null;
    window.lupusNarrator = this;
    this.draw();
  }

  start() {
    if (this.connection) this.connection.open();
  }

  /** Silent for good: the connection closed, nothing left to say. */
  stop() {
    if (this.connection) this.connection.close();
    this.drop();
    if (window.lupusNarrator === this) window.lupusNarrator = null;
  }

  /** The queue as a test reads it: the current step and the lines not said yet. */
  state() {
    return { step: this.step, queue: this.queue.map((line) => ({ ...line })) };
  }

  receive(frame) {
    if (frame.type === "error" && frame.code === "bad_token") {
      this.stop(); // (the host chose another narrator)
      this.gone();
      return;
    }
    if (frame.type !== "view") return;
    const fresh = frame.game !== this.game;
    this.game = frame.game;
    const marks = frame.spoken || [];
    let from = 0;
    if (frame.from === 0) {
      // A view from 0 of a game already told is a reconnection: not said again. A new
      // game is said from its start; one joined under way from its current step.
      if (!fresh) return;
      const steps = marks.filter((mark) => mark === "step").length;
      if (steps > OPENING) from = marks.lastIndexOf("step");
    }
    const lines = [];
    let begins = false;
    for (let i = Math.max(0, from); i < frame.lines.length; i++) {
      if (!marks[i] || !frame.lines[i]) continue;
      if (marks[i] === "step") begins = true;
      lines.push(frame.lines[i]);
    }
    if (!lines.length) return;
    if (begins) {
      this.drop(); // (what the earlier steps did not get to say)
      this.step++;
    }
    for (const line of lines) this.say(line);
  }

  /** Drop whatever was not said yet. */
  drop() {
    this.queue = [];
    if ("speechSynthesis" in window) window.speechSynthesis.cancel();
    this.mark();
  }

  say(line) {
    this.said.push(line);
    if (this.said.length > SHOWN) this.said.shift();
    this.draw();
    if (!this.speaking || !("speechSynthesis" in window)) return;
    const utterance = new SpeechSynthesisUtterance(line);
    const lang = this.page.lobby?.lang || "en";
    utterance.lang = VOICES[lang] || lang;
    const queued = { text: line, step: this.step };
    const done = () => {
      const at = this.queue.indexOf(queued);
      if (at >= 0) this.queue.splice(at, 1);
      this.mark();
    };
    utterance.addEventListener("end", done);
    utterance.addEventListener("error", done);
    this.queue.push(queued);
    this.mark();
    window.speechSynthesis.speak(utterance);
  }

  /** The queue's state on the panel, for whoever checks it. */
  mark() {
    this.element.dataset.step = String(this.step);
    this.element.dataset.queued = String(this.queue.length);
  }

  draw() {
    this.element.replaceChildren(
      h("h3", {}, t("narrator")),
      h(
        "label",
        { class: "check" },
        h("input", {
          type: "checkbox",
          id: "read-aloud",
          checked: this.speaking,
          onchange: (event) => {
            this.speaking = event.target.checked;
            if (!this.speaking) this.drop();
          },
        }),
        " ",
        t("read_aloud"),
      ),
      h("ul", { class: "lines spoken" }, this.said.map((line) => h("li", {}, line))),
    );
    this.mark();
  }
}

/** At one table: who reads the story aloud, for everyone; for the host, his choice (his
 * phone, a person's phone, a separate screen) and the screen's link once he asked for
 * one (`narrator`, docs/protocol.md "Who narrates"). */
export function narratorChoice(page) {
  const lobby = page.lobby;
  if (!lobby?.table || lobby.mode !== "players") return null;
  const chosen = lobby.narrator || { by: "host", seat: null };
  const who =
    chosen.by === "seat" ? t("narrator_by_seat", { player: page.name(chosen.seat) }) : chosen.by === "screen" ? t("narrator_by_screen") : t("narrator_by_host");
  const line = h("p", { class: "narrator-who", id: "narrator-who" }, who);
  if (!page.host) return h("div", { class: "narrator-choice" }, line);
  const value = chosen.by === "seat" ? `seat:${chosen.seat}` : chosen.by;
  const options = [h("option", { value: "host" }, t("narrator_host"))];
  (lobby.seats || []).forEach((seat, number) => {
    if (seat && seat.person && number !== lobby.you) options.push(h("option", { value: `seat:${number}` }, t("narrator_seat", { player: seat.name })));
  });
  options.push(h("option", { value: "screen" }, t("narrator_screen")));
  const select = h(
    "select",
    {
      id: "narrator-by",
      onchange: (event) => {
        const [by, seat] = event.target.value.split(":");
        const message = by === "seat" ? { type: "narrator", by, seat: Number(seat) } : { type: "narrator", by };
        page
          .send(message)
          .then((ack) => {
            page.screenLink = ack.url || null;
            page.render();
          })
          .catch(() => page.render());
      },
    },
    options,
  );
  select.value = value;
  const link = chosen.by === "screen" ? page.screenLink : null;
  return h(
    "div",
    { class: "narrator-choice" },
    line,
    h("label", { for: "narrator-by" }, t("narrator_choose")),
    select,
    link ? screenCard(page, link) : null,
  );
}

function screenCard(page, url) {
  return h(
    "div",
    { class: "new-link-card screen-card", id: "screen-card" },
    h("h3", {}, t("narrator_screen_title")),
    h("p", { class: "hint" }, t("narrator_screen_help")),
    qrElement(url, 5, t("qr_alt", { link: url })),
    h("p", {}, h("a", { href: url, class: "join-link", id: "screen-url", target: "_blank", rel: "noopener" }, url)),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => navigator.clipboard?.writeText(url).then(() => page.toast(t("copied"))),
      },
      t("copy_link"),
    ),
  );
}
