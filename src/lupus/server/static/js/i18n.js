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

/** The word for `key`, its {placeholders} filled from `fields`. */
export function t(key, fields = {}) {
  const template = words[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in fields ? String(fields[name]) : whole,
  );
}
