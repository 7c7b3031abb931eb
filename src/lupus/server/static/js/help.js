// A rulebook's help page (`/?help=<rulebook>`): every role and every rule, in the
// rulebook's words (GET /api/rulebooks/{id}/rules, built by the code of `lupus rules`),
// and the header's link to it from a room's lobby and game, one tap away.

import { fill, h, inBar } from "./dom.js";
import { lang, t } from "./i18n.js";

/** The header's link to the room's rulebook, in a tab of its own (the game goes on). */
export function helpLink(rules) {
  if (!rules) return;
  const link = inBar(h("a", { id: "help-link", class: "bar-link", target: "_blank", rel: "noopener" }));
  link.setAttribute("href", helpHref(rules));
  link.textContent = t("help_link");
}

export function helpHref(rules) {
  return `/?help=${encodeURIComponent(rules)}`;
}

export async function helpPage(app, rules) {
  document.getElementById("where").textContent = t("help_link");
  fill(app, h("p", { class: "card" }, t("connecting")));
  const answer = await fetch(`/api/rulebooks/${encodeURIComponent(rules)}/rules?lang=${encodeURIComponent(lang())}`);
  if (!answer.ok) {
    fill(app, h("section", { class: "card" }, h("h2", {}, t("help_missing")), h("a", { href: "/", class: "button" }, t("home"))));
    return;
  }
  const book = await answer.json();
  document.title = `${book.name} · lupus`;
  fill(app, helpScreen(book));
  // A link to one role (`#role-seer`) lands on it once drawn.
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

function helpScreen(book) {
  const heads = book.headings;
  const part = (id, title, ...body) =>
    h("section", { class: "card help-part", "aria-labelledby": `help-${id}` }, h("h3", { id: `help-${id}` }, title), ...body);
  return h(
    "article",
    { class: "help", lang: book.lang, "aria-labelledby": "help-title" },
    h("h2", { id: "help-title" }, book.name),
    h("p", { class: "help-players" }, book.players),
    book.minimum ? h("p", {}, book.minimum) : null,
    part(
      "roles",
      heads.roles,
      h(
        "ul",
        { class: "help-roles" },
        book.roles.map((role) =>
          h(
            "li",
            { id: `role-${role.id}`, class: "help-role" },
            h("h4", {}, role.name),
            h("p", { class: "help-side" }, sentence(role.line)),
            role.about ? h("p", { class: "about" }, sentence(role.about)) : null,
          ),
        ),
      ),
    ),
    part(
      "order",
      heads.order,
      h(
        "dl",
        { class: "help-order" },
        book.order.map((phase) => [h("dt", {}, phase.title), h("dd", {}, h("ol", {}, phase.steps.map((step) => h("li", {}, sentence(step)))))]),
      ),
    ),
    part("win", heads.win, h("ol", {}, book.win.map((line) => h("li", {}, line)))),
    book.notes.length ? part("notes", heads.notes, h("ul", {}, book.notes.map((line) => h("li", {}, line)))) : null,
    book.options.length
      ? part("options", heads.options, h("ul", {}, book.options.filter((option) => option.help).map((option) => h("li", {}, option.help))))
      : null,
    book.compositions.length
      ? part(
          "compositions",
          heads.compositions,
          h("dl", { class: "help-decks" }, book.compositions.map((deck) => [h("dt", {}, deck.title), h("dd", {}, deck.cards)])),
        )
      : null,
  );
}

/** A rulebook's line is written to follow a name ("Seer: a villager who..."): on its
 * own it starts a sentence. */
function sentence(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
