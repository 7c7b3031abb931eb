// Host powers: whoever holds them now (`lobby.host`, the connection's own) gets these
// controls; everyone sees who holds them. He may pass them
// to another person, let a bot play a seat (or an AI player, when the server has a
// model: `lobby.ai`), and give a seat a new join link (its old one stops working at
// once): shown with its QR code, for a player on another device.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { qrElement } from "./qr.js";
import { narratorChoice } from "./narrator.js";

/** The host's buttons for one seat of the table. */
export function seatControls(page, seat, number) {
  const lobby = page.lobby;
  const controls = [];
  if (!page.host || !seat || number === page.seat) return controls;
  const over = page.view?.finished;
  if (seat.person && lobby.mode === "players" && !over && lobby.number > 0) {
    const hand = (kind, label) =>
      h("button", { type: "button", class: "small hand-over", dataset: { seat: String(number), kind: String(kind) }, onclick: () => page.send({ type: "hand_over", seat: number, kind }).catch(() => {}) }, t(label));
    if (seat.bot) controls.push(hand(null, "give_back"));
    else {
      controls.push(hand("heuristic", "hand_over"));
      if (lobby.ai) controls.push(hand("llm", "hand_over_llm"));
    }
  }
  if (seat.person && lobby.mode === "players") {
    controls.push(
      h("button", { type: "button", class: "small pass-host", dataset: { seat: String(number) }, onclick: () => passHost(page, number) }, t("pass_host")),
      h("button", { type: "button", class: "small new-link", dataset: { seat: String(number) }, onclick: () => newLink(page, number) }, t("new_link")),
    );
  }
  return controls;
}

function passHost(page, seat) {
  page.send({ type: "pass_host", seat }).then(() => page.toast(t("host_passed", { player: page.name(seat) }))).catch(() => {});
}

function newLink(page, seat) {
  page
    .send({ type: "new_link", seat })
    .then((ack) => {
      if (!ack.url) return;
      page.newLink = { seat, url: ack.url };
      page.render();
    })
    .catch(() => {});
}

/** Who holds host powers now, and the new join link the host made, if any. */
export function hostPanel(page) {
  const lobby = page.lobby;
  if (!lobby || lobby.mode !== "players") return null;
  const holder = lobby.host_seat;
  const link = page.host ? page.newLink : null;
  return h(
    "div",
    { class: "card host-info" },
    h(
      "p",
      { class: "host-holder", id: "host-holder" },
      page.host ? t("host_you") : holder === null || holder === undefined ? t(lobby.seatless_creator ? "host_creator" : "host_none") : t("host_is", { player: page.name(holder) }),
    ),
    // (powers that passed on from a creator who plays no seat may go back to him)
    page.host && lobby.seatless_creator && holder !== null && holder !== undefined
      ? h("button", { type: "button", class: "small", id: "host-to-creator", onclick: () => page.send({ type: "pass_host", seat: null }).then(() => page.toast(t("host_passed_creator"))).catch(() => {}) }, t("pass_host_creator"))
      : null,
    link ? linkCard(page, link) : null,
    narratorChoice(page), // (at one table: who reads aloud, and the host's choice)
  );
}

function linkCard(page, link) {
  return h(
    "div",
    { class: "new-link-card", id: "new-link-card" },
    h("h3", {}, t("new_link_title", { player: page.name(link.seat) })),
    h("p", { class: "hint" }, t("new_link_help")),
    qrElement(link.url, 5, t("qr_alt", { link: link.url })),
    h("p", {}, h("a", { href: link.url, class: "join-link", id: "new-link-url" }, link.url)),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => navigator.clipboard?.writeText(link.url).then(() => page.toast(t("copied"))),
      },
      t("copy_link"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "small",
        onclick: () => {
          page.newLink = null;
          page.render();
        },
      },
      t("close"),
    ),
  );
}
