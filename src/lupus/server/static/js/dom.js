// Building the page: every string goes in as text (never as HTML), so a name or a chat
// line cannot become markup; that is the pages' whole defence against injection.

/** An element with attributes, event handlers (`onclick`...) and children. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value") el.value = value;
    else if (key === "checked") el.checked = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace what `el` holds. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Tell screen readers about a change that is not under their focus. */
export function announce(text) {
  const live = document.getElementById("announcer");
  if (live) live.textContent = text;
}

/** The page's header bar holds `el` (by its id), before the language menu: a room's
 * own controls, added once it has them. */
export function inBar(el) {
  const found = document.getElementById(el.id);
  if (found) return found;
  const bar = document.querySelector("header.bar");
  bar.insertBefore(el, bar.querySelector(".language"));
  return el;
}
