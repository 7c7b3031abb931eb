// What players expect of a phone at night (issue 25): a dark screen while the night
// lasts, the screen kept awake during a game (Screen Wake Lock), and a buzz, with a short
// tone if the player chose one, when it is his turn. At one table every living phone
// buzzes alike at every night step (each public `wake`): a lone buzz would be heard
// around the table and tell who acts. Where a phone lacks one of these, nothing happens.
//
// The room's page calls `phoneHabits(page)` after every redraw; it is idempotent.

import { h, inBar } from "./dom.js";
import { t } from "./i18n.js";
import { openStep } from "./story.js";
import { isDead } from "./table.js";

const SOUND = "lupus:sound"; // "on" when the player chose the tone (off by default)
const BUZZ = [180]; // the same on every phone: at one table nobody's differs
const DAY_COLOUR = "#123d8c";
const NIGHT_COLOUR = "#0b0f1f";

let wanted = false; // whether this page wants the screen kept awake now
let lock = null;
let asking = false;
let lastTurn = "";
let lastStep = null;
let audio = null;
let lastTap = -Infinity; // when the player last answered a decision on the page
let tappedVerb = ""; // and with which verb
const TAP_QUIET = 2000; // ms after a tap in which the same decision again is no new turn
const UNDO = "withdraw";

document.addEventListener(
  "click",
  (event) => {
    const button = event.target instanceof Element ? event.target.closest("#app button[data-verb]") : null;
    if (!button) return;
    lastTap = performance.now();
    tappedVerb = button.dataset.verb;
  },
  true,
);

/** Whether decisions of these kinds, just after the player's own tap, follow from it (a
 * vote he may still change, a nomination he may withdraw, or make again). */
function ownEcho(verbs) {
  if (performance.now() - lastTap > TAP_QUIET) return false;
  return verbs.includes(tappedVerb) || verbs.includes(UNDO) || tappedVerb === UNDO;
}

export function phoneHabits(page) {
  const view = page.view;
  const playing = Boolean(view && page.lobby && page.lobby.status !== "lobby" && !view.finished);
  const night = playing && view.phase === "night";
  darkNight(night);
  keepAwake(playing);
  // At one table by night every phone's header is the same: the Sound switch (which
  // reads on or off, each phone as its player chose) is put away on every phone until
  // day; the tone, if chosen, still sounds at every step, as every phone buzzes.
  soundButton(Boolean(page.lobby?.table) && night);
  const seated = typeof page.seat === "number" && page.seat >= 0;
  if (!playing || !seated) {
    lastTurn = "";
    lastStep = null;
    return;
  }
  // A turn: the decisions the game waits for now, by kind ("vote", "nominate"), in this
  // phase. What changes right after the player's own tap (a vote he may change, a
  // nomination he may withdraw) is no new turn.
  const verbs = view.waiting ? [...new Set(view.prompts.map((prompt) => prompt.verb))].sort() : [];
  const turn = verbs.length ? `${view.game}:${view.phase}:${view.number}:${verbs.join(",")}` : "";
  const newTurn = turn !== "" && turn !== lastTurn && !ownEcho(verbs);
  const step = page.lobby.table && night ? nightStep(page) : null;
  const dead = isDead(page, page.seat);
  // At one table by night every living phone buzzes at each step, the same for all: the
  // actor's must not buzz twice, nor differently. (A dead seat's own decision, a
  // Hunter's last shot, is public: his phone calls him.)
  const fresh = page.lobby.table && night ? (!dead && step !== null && step !== lastStep) || (dead && newTurn) : newTurn;
  lastTurn = turn;
  lastStep = step;
  if (fresh) signal();
}

/** The night step everyone can tell (the public `wake` calls since night fell), named
 * in this game. */
function nightStep(page) {
  const step = openStep(page);
  return step ? `${page.view.game}:${step.key}` : null;
}

function signal() {
  // (a browser refuses a buzz, and says so in the console, before the first tap on the
  // page: at a table everyone has tapped by the first night's second step)
  const tapped = navigator.userActivation ? navigator.userActivation.hasBeenActive : true;
  if (typeof navigator.vibrate === "function" && tapped) {
    try {
      navigator.vibrate(BUZZ);
    } catch {
      // (no vibrator: the tone, if chosen, still sounds)
    }
  }
  if (soundOn()) tone();
}

/** The dark night screen: a class on the whole page (css/lupus.css), the browser's bar
 * darkened too. */
function darkNight(night) {
  const root = document.documentElement;
  if (root.classList.contains("night") === night) return;
  root.classList.toggle("night", night);
  const colour = document.querySelector('meta[name="theme-color"]');
  if (colour) colour.setAttribute("content", night ? NIGHT_COLOUR : DAY_COLOUR);
}

async function keepAwake(on) {
  wanted = on;
  if (!on) {
    if (lock) {
      const held = lock;
      lock = null;
      held.release().catch(() => {});
    }
    return;
  }
  if (lock || asking || !navigator.wakeLock || document.visibilityState !== "visible") return;
  asking = true;
  try {
    const got = await navigator.wakeLock.request("screen");
    got.addEventListener("release", () => {
      if (lock === got) lock = null;
    });
    lock = got;
    if (!wanted) keepAwake(false);
  } catch {
    lock = null; // (refused: a low battery, a page not shown; tried again on return)
  } finally {
    asking = false;
  }
}

// The browser lets go of the lock whenever the page is hidden: taken again on return.
document.addEventListener("visibilitychange", () => {
  if (wanted && document.visibilityState === "visible") keepAwake(true);
});

function soundOn() {
  return localStorage.getItem(SOUND) === "on";
}

/** The header's sound switch, in a room (put away while `hushed`). */
function soundButton(hushed) {
  const button = inBar(
    h("button", {
      type: "button",
      id: "sound",
      class: "bar-button",
      onclick: () => {
        localStorage.setItem(SOUND, soundOn() ? "off" : "on");
        drawSound(document.getElementById("sound"));
        if (soundOn()) tone(); // (this tap lets the page make sound from now on)
      },
    }),
  );
  drawSound(button);
  button.hidden = hushed;
}

function drawSound(button) {
  const on = soundOn();
  button.setAttribute("aria-pressed", String(on));
  button.textContent = t(on ? "sound_on" : "sound_off");
}

/** A short tone, made on the phone (no sound file). */
function tone() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const now = audio.currentTime;
    const wave = audio.createOscillator();
    const gain = audio.createGain();
    wave.type = "sine";
    wave.frequency.setValueAtTime(660, now);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.25, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    wave.connect(gain).connect(audio.destination);
    wave.start(now);
    wave.stop(now + 0.3);
  } catch {
    // (no audio output: the buzz is enough)
  }
}

// A page opened with the tone on may sound only after a tap on it.
document.addEventListener(
  "pointerdown",
  () => {
    if (audio && audio.state === "suspended") audio.resume().catch(() => {});
  },
  { passive: true },
);
