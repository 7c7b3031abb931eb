"""A narrator that keeps time (issue 25, item 2), in real Chromium at a phone's size.

The narrating page speaks only the lines the server marks spoken (the phases, the
night's calls, their public results), never a ballot; when a new step begins it drops
whatever it has not said yet, so its queue never holds more than the current step's
lines; its panel is at the top of the page. The host may choose another phone of the
room, or a separate screen (``/?screen=CODE``) that shows what a spectator sees and
speaks; the phone that narrated before falls silent.

Headless Chromium has no voice: each page's ``speechSynthesis`` is replaced by a slow
recorder (``VOICE``) that "says" each utterance in 40 ms a character, one after the
other, as a real voice would, and drops its queue on ``cancel``, firing the events a
browser fires. Every change of the narrator's queue is sampled (``SAMPLES``).
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, join, play_out, start_game

SHOTS = ARTIFACTS / "narrator"

# Runs in the page: its accessibility problems, as sentences (tests/test_web_access.py).
AUDIT = (Path(__file__).parent / "web_audit.js").read_text("utf-8")

VOICE = """
window.__voice = { handed: [], pending: [], cancels: 0, dropped: 0 };
(() => {
  if (!('speechSynthesis' in window)) return;
  const voice = window.__voice;
  const synth = window.speechSynthesis;
  let timer = null;
  const next = () => {
    if (timer || !voice.pending.length) return;
    const utterance = voice.pending[0];
    timer = setTimeout(() => {
      timer = null;
      voice.pending.shift();
      utterance.dispatchEvent(new Event('end'));
      next();
    }, 40 * utterance.text.length);
  };
  synth.speak = (utterance) => {
    voice.handed.push([utterance.lang, utterance.text]);
    voice.pending.push(utterance);
    next();
  };
  synth.cancel = () => {
    voice.cancels++;
    clearTimeout(timer);
    timer = null;
    const dropped = voice.pending.splice(0);
    voice.dropped += dropped.length;
    for (const utterance of dropped) utterance.dispatchEvent(new Event('error'));
  };
})();
"""

SAMPLES = """
window.__samples = [];
new MutationObserver(() => {
  const narrator = window.lupusNarrator;
  if (!narrator) return;
  const state = narrator.state();
  window.__samples.push({
    step: state.step,
    steps: state.queue.map((line) => line.step),
    queue: state.queue.map((line) => line.text),
    pending: (window.__voice?.pending || []).map((utterance) => utterance.text),
  });
}).observe(document, {
  subtree: true, attributes: true, attributeFilter: ['data-step', 'data-queued'],
});
"""

ON_TOP = """() => {
  const panel = document.querySelector('#app .narrator-slot #narrator');
  const screen = document.querySelector('#app .screen');
  if (!panel || !screen || !panel.checkVisibility()) return null;
  return { panel: panel.getBoundingClientRect().top + scrollY,
           screen: screen.getBoundingClientRect().top + scrollY };
}"""


def phone(chromium: Any, server: Server, name: str) -> Phone:
    made = Phone(chromium, server.http, name, SHOTS)
    made.context.add_init_script(VOICE)
    made.context.add_init_script(SAMPLES)
    return made


def handed(phone: Phone) -> list[str]:
    return [text for _, text in phone.page.evaluate("window.__voice.handed")]


def narrating(phone: Phone) -> bool:
    return bool(phone.page.evaluate("Boolean(window.lupusNarrator)"))


def wait(found: Any, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = found()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("never came")


def check_queue(narrator: Phone) -> list[dict[str, Any]]:
    """The narrator's queue never held more than the current step's lines, and the
    voice never held a line the queue did not: every sample of it says so."""
    samples: list[dict[str, Any]] = narrator.page.evaluate("window.__samples")
    assert samples
    for sample in samples:
        assert all(step == sample["step"] for step in sample["steps"]), sample
        assert not Counter(sample["pending"]) - Counter(sample["queue"]), sample
    return samples


def test_the_hosts_phone_keeps_time_and_says_no_ballot(server: Server) -> None:
    created = server.create(
        rules="werewolf", players=8, host_name="Ann", table=True, bot_delay=0.05, pace=0.3
    )
    with browser() as chromium:
        ann = phone(chromium, server, "Ann")
        ann.host(created)
        ann.page.wait_for_selector("#narrator")
        assert ann.page.inner_text("#narrator-who") == "The host's phone reads the story aloud."
        start_game(ann.page)
        ann.page.wait_for_selector(".game")
        top = ann.page.evaluate(ON_TOP)
        assert top is not None and top["panel"] < top["screen"] and top["panel"] < 150, top
        ann.page.evaluate("scrollTo(0, 0)")  # (the top, where the panel is)
        ann.shot("host-narrates")
        play_out([ann], ann, limit=300)
        samples = check_queue(ann)
        said = handed(ann)
        voice = ann.page.evaluate("window.__voice")
        # It skipped rather than fell behind: lines were dropped unsaid, over many
        # steps, and the queue held several lines of one step at times.
        assert voice["dropped"] > 0 and voice["cancels"] > 0, voice["cancels"]
        assert samples[-1]["step"] >= 6, samples[-1]
        assert max(len(sample["queue"]) for sample in samples) > 1
        # What it said: the steps and their results, never a ballot, nothing private.
        assert not [line for line in said if " votes against " in line]
        assert not [line for line in said if "is dealt the card" in line or "(to " in line]
        assert any("wakes up" in line for line in said), said[:10]
        assert any(line.startswith("Night 1 falls") for line in said)
        assert any(" is dead " in line and "the card:" in line for line in said), said
        assert any(line.startswith("Votes:") for line in said)
        assert said[-1].startswith("The game is over"), said[-3:]
        assert {lang for lang, _ in voice["handed"]} == {"en-GB"}
        assert "The game is over" in ann.page.inner_text("#narrator")
        top = ann.page.evaluate(ON_TOP)
        assert top is not None and top["panel"] < top["screen"], top
        ann.shot("host-narrated-the-end", of="#narrator")


def test_another_phone_then_a_screen_narrate_and_show_nothing_private(server: Server) -> None:
    created = server.create(
        rules="werewolf",
        players=8,
        host_name="Ann",
        table=True,
        spectators=True,
        bot_delay=0.05,
        pace=0.4,
    )
    code = created["room"]
    with browser() as chromium:
        ann, bob, watcher = (phone(chromium, server, name) for name in ("Ann", "Bob", "Spy"))
        ann.host(created)
        join(bob, code)
        watcher.goto(f"/?room={code}")
        watcher.page.click("button.secondary:has-text('Watch')")
        watcher.page.wait_for_selector(".lobby")
        assert narrating(ann) and not narrating(bob) and not narrating(watcher)
        problems = [f"host's lobby: {problem}" for problem in ann.page.evaluate(AUDIT)]
        # The host gives the voice to Bob's phone: everyone is told, Ann's falls silent.
        ann.page.select_option("#narrator-by", "seat:1")
        wait(lambda: narrating(bob))
        wait(lambda: not narrating(ann))
        for page in (ann, bob, watcher):
            wait(lambda p=page: "Bob's phone" in p.page.inner_text("#narrator-who"))
        assert not ann.page.query_selector("#narrator")
        before = len(handed(ann))
        start_game(ann.page)
        bob.page.wait_for_selector(".game")
        people = [ann, bob]
        play_out(people, ann, until=lambda: any("wakes up" in line for line in handed(bob)))
        # By night a player's narrating phone looks as every other living phone: its
        # panel is put away while its voice goes on (test_web_table_night); by day it
        # is on top of his page.
        if bob.phase() == "night":
            assert bob.page.evaluate(ON_TOP) is None
        play_out(people, ann, until=lambda: bob.phase() == "day" or bob.finished())
        top = bob.page.evaluate(ON_TOP)
        assert top is not None and top["panel"] < top["screen"] and top["panel"] < 150, top
        bob.page.evaluate("scrollTo(0, 0)")  # (the top, where the panel is)
        bob.shot("bob-narrates")
        # Then a separate screen: its link on the host's page, opened on a "tablet".
        ann.page.select_option("#narrator-by", "screen")
        url = wait(lambda: ann.page.get_attribute("#screen-url", "href"))
        assert f"/?screen={code}#token=" in url
        ann.shot("screen-link")
        problems += [f"screen link: {problem}" for problem in ann.page.evaluate(AUDIT)]
        screen = phone(chromium, server, "Screen")
        screen.page.goto(url)
        screen.page.wait_for_selector("#narrator")
        assert "#token" not in screen.page.url
        wait(lambda: not narrating(bob))
        bob_said = len(handed(bob))
        assert not bob.page.query_selector("#narrator")
        play_out(people, ann, until=lambda: bool(handed(screen)) and screen.phase() == "day")
        top = screen.page.evaluate(ON_TOP)
        assert top is not None and top["panel"] < top["screen"] and top["panel"] < 150, top
        screen.page.evaluate("scrollTo(0, 0)")  # (the top, where the panel is)
        screen.shot("screen")
        problems += [f"screen: {problem}" for problem in screen.page.evaluate(AUDIT)]
        assert not problems, "\n".join(problems)
        # What the screen shows is what a spectator sees (the same public table, phase
        # and countdown), whatever the moment.
        same_as_spectator(screen, watcher)
        play_out(people, ann, limit=300)
        same_as_spectator(screen, watcher)
        screen.shot("screen-end")
        said = handed(screen)
        check_queue(screen)
        assert said and said[-1].startswith("The game is over"), said[-3:]
        assert not [line for line in said if " votes against " in line]
        assert any(" is dead " in line for line in said)
        # Bob's phone and Ann's stayed silent once the voice went elsewhere.
        assert len(handed(bob)) == bob_said and len(handed(ann)) == before
        assert any("wakes up" in line for line in handed(bob)[:bob_said])
        assert not narrating(ann) and not narrating(bob) and narrating(screen)
        for page in (ann, bob, watcher, screen):
            text = page.page.inner_text("#narrator-who")
            assert text == "A separate screen reads the story aloud.", text


def same_as_spectator(screen: Phone, watcher: Phone) -> None:
    """The screen's page, but for its narrator's panel on top, reads as a spectator's:
    compared until they agree (each page draws each frame when it comes)."""

    def text(page: Phone) -> str:
        shown: str = page.page.inner_text("#app .screen")
        return "\n".join(line for line in shown.splitlines() if "left" not in line)

    def agree() -> bool:
        return text(screen) == text(watcher)

    wait(agree, timeout=10)
    shown = text(screen)
    assert "is dealt the card" not in shown and "Show my card" not in shown
    assert not screen.page.query_selector(".role-card, .decide, .chat")
