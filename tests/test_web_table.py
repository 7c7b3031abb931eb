"""At one table (issue 14, item 4): the host's device reads the public story aloud and
shows what it says; every living phone asks for a tap at every night step, whether its
player acts or not."""

from __future__ import annotations

from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, gather, play_out, start_game

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]

# What the host's device says: kept by the page's speech calls (headless Chromium has
# no voice to hear).
RECORD_SPEECH = """
window.__spoken = [];
if ('speechSynthesis' in window) {
  window.speechSynthesis.speak = (said) => window.__spoken.push([said.lang, said.text]);
}
"""

# Every tap screen a page ever drew ("<night>.<step>:decoy" or ":real"), as the DOM
# showed it, however briefly.
RECORD_TAPS = """
window.__taps = [];
new MutationObserver(() => {
  for (const screen of document.querySelectorAll('.decide[data-step]')) {
    const key = screen.dataset.step + (screen.classList.contains('decoy') ? ':decoy' : ':real');
    if (screen.dataset.step && !window.__taps.includes(key)) window.__taps.push(key);
  }
}).observe(document, { subtree: true, childList: true });
"""


def test_at_one_table_every_phone_taps_at_every_night_step(server: Server) -> None:
    shots = ARTIFACTS / "table"
    with browser() as chromium:
        phones = [Phone(chromium, server.http, name, shots) for name in NAMES]
        host = phones[0]
        host.context.add_init_script(RECORD_SPEECH)
        for phone in phones:
            phone.context.add_init_script(RECORD_TAPS)
        gather(phones, "werewolf", 8, pace=1.0, table=True)
        host.page.wait_for_selector("text=At the table: 8 of 8")
        start_game(host.page)
        seen: list[str] = []

        def look(phone: Phone) -> None:
            if phone.phase() == "night" and len(seen) < 2:
                screen = phone.page.query_selector(".decide[data-step]")
                kind = (
                    "decoy"
                    if screen and "decoy" in (screen.get_attribute("class") or "")
                    else "real"
                )
                if screen is not None and kind not in seen:
                    seen.append(kind)
                    phone.shot(f"night-{kind}")

        play_out(phones, host, each=look)
        tapped = {phone.name: set(phone.page.evaluate("window.__taps")) for phone in phones}
        steps = {key.split(":")[0] for keys in tapped.values() for key in keys}
        tapped = {name: {key.split(":")[0] for key in keys} for name, keys in tapped.items()}
        assert len(steps) >= 3, steps
        # The survivors were alive at every night step: each phone asked them to tap.
        survivors = [
            phone
            for phone in phones
            if phone.page.query_selector(f".players .seat:not(.gone) >> text={phone.name}")
        ]
        assert survivors
        for phone in survivors:
            assert tapped[phone.name] == steps, (phone.name, sorted(steps - tapped[phone.name]))
        # The host's device said the public story aloud, and only the public story.
        spoken = host.page.evaluate("window.__spoken")
        said = [text for _, text in spoken]
        assert any("Seer" in text and "wakes up" in text for text in said), said[:10]
        assert any("The game is over" in text for text in said)
        assert not any("is dealt the card" in text for text in said)  # private to each
        assert {lang for lang, _ in spoken} == {"en-GB"}
        shown = host.page.inner_text(".narrator")
        assert "The game is over" in shown
        host.shot("narrator", of=".narrator")
