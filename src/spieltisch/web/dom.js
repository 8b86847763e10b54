// Building DOM and SVG nodes. Text always goes in as text nodes, never as HTML, so names and
// anything else typed by people are shown literally.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * What may go inside a node: nodes, text (numbers too), nested lists of them; null, undefined
 * and false are left out, so `cond ? h(...) : null` reads naturally.
 * @typedef {Node | string | number | null | undefined | false | readonly unknown[]} Child
 */

/**
 * Attributes: `text` sets the text, `on...` functions listen to events, true writes an empty
 * attribute, and null, undefined or false leave it out.
 * @typedef {{ [name: string]: unknown }} Attrs
 */

/**
 * @template {Element} E
 * @param {E} node
 * @param {Attrs | null | undefined} attrs
 * @param {Child[]} children
 * @returns {E}
 */
function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of /** @type {Child[]} */ (children.flat(Infinity))) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/**
 * An SVG element.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

// The drawing of an <svg> as a <g> placed by `transform`, to compose pictures without
// nesting <svg> elements (whose sizing differs between browsers).
/**
 * @param {SVGElement} svg
 * @param {string} transform
 * @returns {SVGGElement}
 */
export function asGroup(svg, transform) {
  const group = s("g", { transform, class: svg.getAttribute("class") });
  group.append(...svg.childNodes);
  return group;
}

/**
 * @template {Node} N
 * @param {N} node
 * @returns {N}
 */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/**
 * @template {Element} E
 * @param {E} node
 * @param {...Child} children
 * @returns {E}
 */
export function append(node, ...children) {
  return fill(node, {}, children);
}

/**
 * @template {Element} E
 * @param {E} node
 * @param {...Child} children
 * @returns {E}
 */
export function replaceChildren(node, ...children) {
  return fill(clear(node), {}, children);
}

// Rebuild part of the page without losing the person's place: the focused element (or the
// one that takes its place, found by id or by what it does), the caret of a text field and
// the scroll of elements marked data-keep-scroll survive `rebuild`. When the focused element
// is gone for good, `fallback()` (if given) names where the focus goes instead.
/**
 * @param {() => void} rebuild
 * @param {() => Element | null} [fallback]
 */
export function keepingPlace(rebuild, fallback = () => null) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const key = focusKey(active);
  const field = /** @type {HTMLInputElement | null} */ (active); // or any element with a caret
  const caret = field && typeof field.selectionStart === "number" ? [field.selectionStart, field.selectionEnd ?? field.selectionStart] : null;
  const kept = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-keep-scroll]"));
  const scrolls = [...kept].map((el) => /** @type {[string, number]} */ ([el.dataset.keepScroll ?? "", el.scrollTop]));
  rebuild();
  for (const [name, top] of scrolls) {
    const found = document.querySelector(`[data-keep-scroll="${CSS.escape(name)}"]`);
    if (found) found.scrollTop = top;
  }
  const lost = active && active !== document.body && !active.isConnected;
  const found = (active && active.isConnected ? active : key ? document.querySelector(key) : null) || (lost ? fallback() : null);
  const target = /** @type {HTMLElement | null} */ (found);
  if (!target || target === document.activeElement) return;
  target.focus({ preventScroll: true });
  const input = /** @type {HTMLInputElement} */ (target);
  if (caret && typeof input.setSelectionRange === "function") input.setSelectionRange(caret[0], caret[1]);
}

const FOCUS_ATTRIBUTES = ["data-action", "data-piece", "data-face", "data-card", "data-seat"];

/**
 * A selector that finds the element taking the place of `node` after a rebuild, if any.
 * @param {Element | null} node
 * @returns {string | null}
 */
function focusKey(node) {
  if (!node || node === document.body || !(node instanceof Element)) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const attribute = FOCUS_ATTRIBUTES.find((name) => node.hasAttribute(name));
  return attribute ? `${node.tagName.toLowerCase()}[${attribute}="${CSS.escape(node.getAttribute(attribute) ?? "")}"]` : null;
}

/** @type {{ [key: string]: number | undefined }} */
const ARROW_STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

// Arrow keys move the focus between the buttons of `container` that do something (Tab and
// Shift+Tab still walk the whole page); the list wraps around at either end.
/**
 * @template {HTMLElement} E
 * @param {E} container
 * @returns {E}
 */
export function arrowKeys(container) {
  container.addEventListener("keydown", (event) => {
    const step = ARROW_STEPS[event.key];
    const buttons = [.../** @type {NodeListOf<HTMLButtonElement>} */ (container.querySelectorAll("button[data-action]:not([disabled])"))];
    const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (!step || at === -1) return;
    event.preventDefault();
    buttons[(at + step + buttons.length) % buttons.length].focus();
  });
  return container;
}
