// Building DOM and SVG nodes. Text always goes in as text nodes, never as HTML, so names and
// anything else typed by people are shown literally.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

// The drawing of an <svg> as a <g> placed by `transform`, to compose pictures without
// nesting <svg> elements (whose sizing differs between browsers).
export function asGroup(svg, transform) {
  const group = s("g", { transform, class: svg.getAttribute("class") });
  group.append(...svg.childNodes);
  return group;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

export function append(node, ...children) {
  return fill(node, {}, children);
}

export function replaceChildren(node, ...children) {
  return fill(clear(node), {}, children);
}

// Rebuild part of the page without losing the person's place: the focused element (or the
// one that takes its place, found by id or by what it does), the caret of a text field and
// the scroll of elements marked data-keep-scroll survive `rebuild`. When the focused element
// is gone for good, `fallback()` (if given) names where the focus goes instead.
export function keepingPlace(rebuild, fallback = () => null) {
  const active = document.activeElement;
  const key = focusKey(active);
  const caret = active && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
  const scrolls = [...document.querySelectorAll("[data-keep-scroll]")].map((el) => [el.dataset.keepScroll, el.scrollTop]);
  rebuild();
  for (const [name, top] of scrolls) {
    const found = document.querySelector(`[data-keep-scroll="${CSS.escape(name)}"]`);
    if (found) found.scrollTop = top;
  }
  const lost = active && active !== document.body && !active.isConnected;
  const target = (active && active.isConnected ? active : key ? document.querySelector(key) : null) || (lost ? fallback() : null);
  if (!target || target === document.activeElement) return;
  target.focus({ preventScroll: true });
  if (caret && typeof target.setSelectionRange === "function") target.setSelectionRange(caret[0], caret[1]);
}

const FOCUS_ATTRIBUTES = ["data-action", "data-piece", "data-face", "data-card", "data-seat"];

function focusKey(node) {
  if (!node || node === document.body || !(node instanceof Element)) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const attribute = FOCUS_ATTRIBUTES.find((name) => node.hasAttribute(name));
  return attribute ? `${node.tagName.toLowerCase()}[${attribute}="${CSS.escape(node.getAttribute(attribute))}"]` : null;
}

// Arrow keys move the focus between the buttons of `container` that do something (Tab and
// Shift+Tab still walk the whole page); the list wraps around at either end.
export function arrowKeys(container) {
  container.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    const buttons = [...container.querySelectorAll("button[data-action]:not([disabled])")];
    const at = buttons.indexOf(document.activeElement);
    if (!step || at === -1) return;
    event.preventDefault();
    buttons[(at + step + buttons.length) % buttons.length].focus();
  });
  return container;
}
