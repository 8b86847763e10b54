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
