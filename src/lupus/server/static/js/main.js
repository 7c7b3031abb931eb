// The pages' entry: pick the language, then the home page, a room (`/?room=CODE`), a
// room's narrating screen (`/?screen=CODE`) or a finished game (`/?replay=ID`).

import { fill, h } from "./dom.js";
import { choose, languages, load, preferred, t } from "./i18n.js";
import { helpPage } from "./help.js";
import { homePage } from "./home.js";
import { replayPage } from "./replay.js";
import { RoomPage } from "./room.js";

async function start() {
  await load(preferred());
  const picker = document.getElementById("language");
  fill(
    picker,
    Object.entries(languages()).map(([code, name]) => h("option", { value: code }, name)),
  );
  picker.value = document.documentElement.lang;
  picker.addEventListener("change", () => {
    choose(picker.value);
    location.reload();
  });
  document.getElementById("language-label").textContent = t("language");
  const app = document.getElementById("app");
  const query = new URLSearchParams(location.search);
  const code = query.get("room");
  const replay = query.get("replay");
  const help = query.get("help");
  const screen = query.get("screen"); // (a screen that narrates a room: narrator.js)
  if (help) helpPage(app, help.trim());
  else if (replay) replayPage(app, replay.trim());
  else if (screen) new RoomPage(app, screen.trim().toUpperCase(), { screen: true }).start();
  else if (code) new RoomPage(app, code.trim().toUpperCase()).start();
  else homePage(app);
}

start();
