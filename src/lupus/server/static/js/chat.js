// The room's talk. The server picks the channel from who speaks and when (the day, the
// pack at its step, the dead): the page only shows which one a line came on.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function chatPanel(page) {
  const log = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": t("chat") });
  const text = h("input", { id: "chat-text", maxlength: 500, autocomplete: "off", enterkeyhint: "send" });
  const form = h(
    "form",
    {
      class: "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        const said = text.value.trim();
        if (!said) return;
        page.send({ type: "chat", text: said }).then(() => (text.value = "")).catch(() => {});
      },
    },
    h("label", { for: "chat-text", class: "hidden-label" }, t("say")),
    text,
    h("button", { type: "submit", class: "secondary" }, t("send")),
  );
  const element = h("section", { class: "chat card", "aria-labelledby": "chat-title" }, h("h3", { id: "chat-title" }, t("chat")), log, form);
  return {
    element,
    add(line) {
      const from = line.from ?? t("spectator");
      const time = new Date(line.time * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      log.append(
        h(
          "li",
          { class: `said channel-${line.channel}` },
          // (the pack's channel by the rulebook's name for it: "maffian", "the Werewolves")
          h("span", { class: "channel" }, (line.channel === "pack" && page.book?.names?.pack) || t(`channel_${line.channel}`)),
          " ",
          h("strong", {}, from),
          h("time", {}, ` ${time}`),
          h("span", { class: "text" }, line.text),
        ),
      );
      log.scrollTop = log.scrollHeight;
    },
    clear() {
      log.replaceChildren();
    },
    update() {},
  };
}
