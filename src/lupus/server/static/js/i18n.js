// The interface's words, from the server (`GET /api/ui/<lang>`, the [ui] table of the
// language's file in src/lupus/locales/): the pages hold none of their own.

let words = {};
let current = "en";
let known = { en: "English" };

const STORE = "lupus:lang";

/** The language the reader chose before, else his browser's, else English. */
export function preferred() {
  const chosen = localStorage.getItem(STORE);
  if (chosen) return chosen;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return browser;
}

export async function load(lang) {
  let answer = await fetch(`/api/ui/${encodeURIComponent(lang)}`);
  if (!answer.ok) answer = await fetch("/api/ui/en");
  const body = await answer.json();
  words = body.words;
  current = body.lang;
  known = body.languages;
  document.documentElement.lang = current;
  return current;
}

export function choose(lang) {
  localStorage.setItem(STORE, lang);
}

export function lang() {
  return current;
}

export function languages() {
  return known;
}

/** A language named in its own words ("Svenska"): the interface's name for it, else
 * the browser's, else its code. */
export function languageName(code) {
  if (known[code]) return known[code];
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    if (name && name !== code) return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    // (an unknown code: named by itself)
  }
  return code;
}

/** A refusal of the server (an `error` frame, an HTTP problem) in the reader's
 * language: the interface's words for its `reason` (`refusal_<reason>`), filled from
 * its `fields`; the server's English `message` only for a reason this interface has no
 * words for (a newer server's). */
export function refusal(error) {
  const key = error?.reason ? `refusal_${error.reason}` : null;
  const text = key && key in words ? t(key, error.fields || {}) : error?.message || t("refused");
  return text ? text.charAt(0).toLocaleUpperCase(current) + text.slice(1) : text;
}

/** The word for `key`, its {placeholders} filled from `fields`; with a `count` of 1,
 * the singular `key_one` when the language has one ("1 empty seat", not "1 empty
 * seats"). */
export function t(key, fields = {}) {
  const one = fields.count === 1 || fields.count === "1" ? words[`${key}_one`] : undefined;
  const template = one ?? words[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in fields ? String(fields[name]) : whole,
  );
}
