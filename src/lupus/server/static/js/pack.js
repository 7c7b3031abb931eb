// The pack (the werewolves, the mafia) at its step: each member sees his partners marked
// and what every living member points at now (`view.pack`, docs/protocol.md), and may
// change his own choice until the step closes (the server decides when they agree).

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The seats this seat was told are its partners (the latest `pack` event told to it). */
export function partners(page) {
  let mates = new Set();
  if (page.seat === null || page.seat < 0) return mates;
  for (const event of page.events) {
    if (event.kind !== "pack" || !event.audience || !event.audience.includes(page.seat)) continue;
    // (the dead watch the night and are told of the pack too: only a member has partners)
    const members = Object.keys(event.data.roles || {}).map(Number);
    if (!members.includes(page.seat)) continue;
    mates = new Set(members.filter((seat) => seat !== page.seat));
  }
  return mates;
}

/** Every living member's current choice, while the pack's step is open. */
export function packPanel(page) {
  const pack = page.view?.pack;
  if (!Array.isArray(pack) || !pack.length) return null;
  return h(
    "div",
    { class: "pack-choices", role: "status", "aria-live": "polite" },
    h("p", { class: "hint" }, t("pack_title", { pack: packName(page) })),
    h(
      "ul",
      { class: "pack-list" },
      pack.map((entry) =>
        h(
          "li",
          { dataset: { seat: String(entry.seat), target: entry.target === null ? "" : String(entry.target) } },
          h("strong", {}, entry.seat === page.seat ? t("pack_you") : page.name(entry.seat)),
          ": ",
          entry.target === null ? h("span", { class: "hint" }, t("pack_none")) : t("pack_points", { target: page.name(entry.target) }),
        ),
      ),
    ),
    agreed(pack) ? h("p", { class: "agreed" }, t("pack_agreed")) : h("p", { class: "hint" }, t("pack_change")),
  );
}

/** The rulebook's name for the pack ("the Werewolves", "maffian"), as a sentence starts. */
function packName(page) {
  const name = page.book?.names?.pack || t("channel_pack");
  return name[0].toUpperCase() + name.slice(1);
}

function agreed(pack) {
  const targets = new Set(pack.map((entry) => entry.target));
  return targets.size === 1 && !targets.has(null);
}
