// The accessibility audit of tests/test_web_access.py, run in the page: the WCAG AA
// contrast of every text drawn (4.5:1, 3:1 for large text), a label on every control,
// a name on every button, link and image. Returns the problems found, as sentences.
() => {
  const problems = [];
  const parse = (text) => {
    const found = text.match(/rgba?\(([^)]+)\)/);
    if (!found) return null;
    const [r, g, b, a] = found[1].split(",").map(Number);
    return { r, g, b, a: a === undefined ? 1 : a };
  };
  const channel = (v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const ground = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0.5) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("[hidden], button:disabled, .hidden-label, noscript")) continue;
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    const [hi, lo] = [luminance(parse(style.color)), luminance(ground(el))].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize);
    const bold = parseInt(style.fontWeight, 10) >= 700;
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < needed) problems.push(`contrast ${ratio.toFixed(2)} < ${needed}: ${text.slice(0, 40)}`);
  }
  for (const control of document.querySelectorAll("input, select, textarea")) {
    if (control.type === "hidden") continue;
    const named =
      control.labels?.length || control.getAttribute("aria-label") || control.getAttribute("aria-labelledby");
    if (!named) problems.push(`no label: ${control.tagName.toLowerCase()}#${control.id}`);
  }
  for (const named of document.querySelectorAll("button, a, img")) {
    const name =
      named.tagName === "IMG"
        ? named.getAttribute("alt")
        : named.textContent.trim() || named.getAttribute("aria-label");
    if (!name) problems.push(`no name: ${named.outerHTML.slice(0, 60)}`);
  }
  return problems;
}
