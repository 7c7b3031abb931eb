// Lupusburg's pieces as small inline pictures (no font needed: a phone without colour
// emoji draws them too). Decoration only: every one goes with words next to it.

const NS = "http://www.w3.org/2000/svg";

const SHAPES = {
  // The Burgomaster's crown.
  crown: [["path", { d: "M3 19h18l1.5-11-5.5 4.5L12 4l-5 8.5L1.5 8z" }]],
  // A house.
  house: [["path", { d: "M3 11.5 12 3l9 8.5V21h-6v-6H9v6H3z" }]],
  // The chest: a lid and a body, a lock between.
  chest: [
    ["path", { d: "M3 10a9 5 0 0 1 18 0v1H3z" }],
    ["path", { d: "M3 12.5h8v2h2v-2h8V21H3z" }],
  ],
  // The Werewolf's claw: three scratches.
  claw: [
    ["path", { d: "M5 3c4 5 4 12 1 18M11 2c4 6 4 13 1 20M17 3c4 5 4 12 1 18", fill: "none", stroke: "currentColor", "stroke-width": 2.4, "stroke-linecap": "round" }],
  ],
  // The paw print (the first suspect's evidence token).
  paw: [
    ["ellipse", { cx: 12, cy: 16.5, rx: 5.5, ry: 4.5 }],
    ["circle", { cx: 4.5, cy: 10, r: 2.2 }],
    ["circle", { cx: 9, cy: 5.5, r: 2.2 }],
    ["circle", { cx: 15, cy: 5.5, r: 2.2 }],
    ["circle", { cx: 19.5, cy: 10, r: 2.2 }],
  ],
  // The tuft of fur (the second suspect's).
  fur: [
    ["path", { d: "M4 21c1-7 0-11 3-18M9 21c1-7 1-11 4-17M14 21c0-6 2-10 5-15M19 21c0-4 1-7 3-10", fill: "none", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round" }],
  ],
  // A voting token.
  token: [["circle", { cx: 12, cy: 12, r: 8 }]],
  // A betting seal.
  seal: [
    ["circle", { cx: 12, cy: 12, r: 10 }],
    ["path", { d: "m12 6 1.8 3.7 4 .6-2.9 2.8.7 4L12 15.2l-3.6 1.9.7-4-2.9-2.8 4-.6z", fill: "#fff" }],
  ],
  // The linen bag of coins.
  bag: [["path", { d: "M8 3h8l-2.5 3.5C18 8.5 21 13 21 17a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4c0-4 3-8.5 7.5-10.5z" }]],
  // Set aside: a cross.
  out: [["path", { d: "M10 2h4v6h6v4h-6v10h-4V12H4V8h6z" }]],
  // The privilege: an eye.
  eye: [
    ["path", { d: "M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" }],
    ["circle", { cx: 12, cy: 12, r: 3.5, fill: "#fff" }],
  ],
  // A ballot (the second voting).
  ballot: [["path", { d: "m3 12 6 6L21 5", fill: "none", stroke: "currentColor", "stroke-width": 3, "stroke-linecap": "round" }]],
  // The winner.
  star: [["path", { d: "m12 2 3 6.5 7 .8-5.2 4.8 1.4 7L12 17.6 5.8 21.1l1.4-7L2 9.3l7-.8z" }]],
};

/** A picture of `name`, hidden from screen readers (the words next to it say it). */
export function icon(name) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `lb-icon lb-icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("fill", "currentColor");
  for (const [tag, attrs] of SHAPES[name] || []) {
    const part = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) part.setAttribute(key, String(value));
    svg.append(part);
  }
  return svg;
}
