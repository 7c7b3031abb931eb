// At one table, the host's device is the game master's voice: it reads the public story
// aloud, in the room's language, and shows what it says. It listens on a spectator's
// connection of its own (`watch` with the host's token), so nothing private of the
// host's own seat can ever be read out.

import { Connection } from "./connection.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const VOICES = { en: "en-GB", sv: "sv-SE" };

export class Narrator {
  constructor(page, token) {
    this.page = page;
    this.said = [];
    this.game = null;
    this.speaking = true;
    this.element = h("div", { class: "narrator card", role: "log", "aria-live": "polite" });
    this.connection = new Connection(
      () => ({ type: "watch", room: page.code, token, lang: page.lobby?.lang }),
      (frame) => this.receive(frame),
      () => {},
    );
  }

  start() {
    this.connection.open();
  }

  receive(frame) {
    if (frame.type !== "view") return;
    const fresh = frame.game !== this.game;
    this.game = frame.game;
    // A view from 0 of a game already under way is a reconnection: its story was told.
    if (frame.from === 0 && !fresh) return;
    if (frame.from === 0 && frame.number > 1) return;
    for (const line of frame.lines) {
      if (!line) continue;
      this.say(line.replace(/^==\s*|\s*==$/g, ""));
    }
  }

  say(line) {
    this.said.push(line);
    if (this.said.length > 4) this.said.shift();
    this.draw();
    if (!this.speaking || !("speechSynthesis" in window)) return;
    const utterance = new SpeechSynthesisUtterance(line);
    const lang = this.page.lobby?.lang || "en";
    utterance.lang = VOICES[lang] || lang;
    window.speechSynthesis.speak(utterance);
  }

  draw() {
    this.element.replaceChildren(
      h("h3", {}, t("narrator")),
      h(
        "label",
        { class: "check" },
        h("input", {
          type: "checkbox",
          checked: this.speaking,
          onchange: (event) => {
            this.speaking = event.target.checked;
            if (!this.speaking && "speechSynthesis" in window) window.speechSynthesis.cancel();
          },
        }),
        " ",
        t("read_aloud"),
      ),
      h("ul", { class: "lines spoken" }, this.said.map((line) => h("li", {}, line))),
    );
  }
}
