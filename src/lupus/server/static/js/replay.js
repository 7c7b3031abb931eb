// A finished game's replay (`/?replay=<game id>`): the whole game night by night, as
// the game leader saw it, every card shown (GET /api/games/{id}/story). Anyone with the
// link may open it: a game is told only once it is over.

import { fill, h } from "./dom.js";
import { lang, t } from "./i18n.js";

export async function replayPage(app, game) {
  const code = game.split("-", 1)[0];
  document.getElementById("where").textContent = code;
  fill(app, h("p", { class: "card" }, t("replay_loading")));
  const [answer, books] = await Promise.all([
    fetch(`/api/games/${encodeURIComponent(game)}/story?lang=${encodeURIComponent(lang())}`),
    fetch(`/api/rulebooks?lang=${encodeURIComponent(lang())}`).then((r) => r.json()),
  ]);
  if (!answer.ok) {
    fill(app, h("section", { class: "card replay-missing" }, h("h2", {}, t("replay_missing")), h("a", { href: "/", class: "button" }, t("home"))));
    return;
  }
  const story = await answer.json();
  const book = books.find((b) => b.id === story.rules) || null;
  fill(app, replayScreen(story, book, code));
}

function replayScreen(story, book, code) {
  // The end's public table (the story's `public`): every card is public then, and its
  // end says who won.
  const table = story.public || { players: [], end: null };
  const name = (rid) => book?.roles?.[rid]?.name || rid;
  const cards = (seat) => {
    const known = (table.players || []).find((player) => player.seat === seat);
    if (!known) return "";
    if (Array.isArray(known.houses)) return known.houses.map((house) => house.character).filter(Boolean).map(name).join(" + ");
    return known.card ? name(known.card) : "";
  };
  const winners = new Set(table.end?.winners || []);
  return h(
    "section",
    { class: "replay", "aria-labelledby": "replay-title" },
    h("h2", { id: "replay-title" }, t("replay_title", { game: book ? book.name : story.rules })),
    h(
      "table",
      { class: "all-cards card" },
      h("caption", {}, t("every_card")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("leader_player")), h("th", { scope: "col" }, t("leader_card")), h("th", { scope: "col" }, t("result_col")))),
      h(
        "tbody",
        {},
        story.players.map((player, seat) =>
          h(
            "tr",
            { class: winners.has(seat) ? "winner" : "" },
            h("th", { scope: "row" }, player),
            h("td", {}, cards(seat)),
            h("td", {}, winners.has(seat) ? t("won") : ""),
          ),
        ),
      ),
    ),
    chapters(story.lines).map(([title, lines]) =>
      h(
        "section",
        { class: "card chapter" },
        title ? h("h3", {}, title) : null,
        h("ul", { class: "lines" }, lines.map((line) => h("li", { class: line.startsWith("(") ? "private" : "" }, line))),
      ),
    ),
    h("p", {}, h("a", { href: `/?room=${encodeURIComponent(code)}`, class: "button" }, t("replay_back"))),
  );
}

/** The story's lines cut at its night and day headings ("== Night 1 =="). */
function chapters(lines) {
  const out = [[null, []]];
  for (const line of lines) {
    if (line.startsWith("==")) out.push([line.replace(/^==\s*|\s*==$/g, ""), []]);
    else if (line) out[out.length - 1][1].push(line);
  }
  return out.filter(([title, said]) => title || said.length);
}
