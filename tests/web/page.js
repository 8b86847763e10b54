// A browser page for the web client's modules under Node: jsdom's window, its document and
// the DOM classes as globals (as a browser has them), and the few things jsdom lacks made
// controllable: the system's reduced-motion setting (matchMedia) and CSS.escape.
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!doctype html><html><head></head><body></body></html>", { url: "http://localhost/" });
const { window } = dom;

/** The system's "reduce motion" setting as matchMedia reports it; tests change `matches`. */
export const reducedMotion = { matches: false, media: "(prefers-reduced-motion: reduce)", listeners: /** @type {(() => void)[]} */ ([]) };

Object.assign(window, {
  /** @param {string} query */
  matchMedia: (query) => {
    if (query !== reducedMotion.media) throw new Error(`no media query ${query} in these tests`);
    return {
      get matches() {
        return reducedMotion.matches;
      },
      addEventListener: (/** @type {string} */ _type, /** @type {() => void} */ listener) => reducedMotion.listeners.push(listener),
    };
  },
  CSS: { escape: cssEscape },
});

/**
 * CSS.escape as the CSSOM specification serializes an identifier.
 * @param {string} value
 */
function cssEscape(value) {
  return [...value].map((char, i) => {
    const code = char.codePointAt(0) ?? 0;
    const digit = code >= 0x30 && code <= 0x39;
    if (code === 0) return "\uFFFD";
    if (code <= 0x1f || code === 0x7f || (i === 0 && digit) || (i === 1 && digit && value[0] === "-")) return `\\${code.toString(16)} `;
    if (i === 0 && char === "-" && value.length === 1) return "\\-";
    if (code >= 0x80 || /[\w-]/.test(char)) return char;
    return `\\${char}`;
  }).join("");
}

const GLOBALS = ["window", "document", "navigator", "localStorage", "location", "Node", "Element", "HTMLElement",
  "HTMLInputElement", "SVGElement", "KeyboardEvent", "Event", "CSS"];
for (const name of GLOBALS) {
  const value = name === "window" ? window : /** @type {any} */ (window)[name];
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}

/** An empty page and storage for the next test. */
export function freshPage() {
  window.document.body.replaceChildren();
  window.document.documentElement.className = "";
  window.localStorage.clear();
  reducedMotion.matches = false;
  reducedMotion.listeners.length = 0;
}
