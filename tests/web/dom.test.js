import "./page.js";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { append, arrowKeys, asGroup, clear, h, keepingPlace, replaceChildren, s } from "../../src/spieltisch/web/dom.js";

beforeEach(freshPage);

test("h sets attributes, text and listeners, and leaves out what is null, undefined or false", () => {
  let clicks = 0;
  const button = h("button", { id: "go", class: "primary", autofocus: true, hidden: false, title: null, "data-x": undefined,
    "data-n": 3, text: "Go", onclick: () => (clicks += 1) });
  assert.equal(button.outerHTML, '<button id="go" class="primary" autofocus="" data-n="3">Go</button>');
  button.click();
  assert.equal(clicks, 1);
});

test("children are flattened, numbers become text, and empty ones are skipped", () => {
  const list = h("ul", {}, [h("li", { text: "a" }), [null, h("li", { text: "b" })]], false, undefined, 7);
  assert.equal(list.outerHTML, "<ul><li>a</li><li>b</li>7</ul>");
});

test("text is never parsed as markup", () => {
  const name = '<img src=x onerror="alert(1)">';
  const node = h("p", { text: name }, name);
  assert.equal(node.children.length, 0);
  assert.equal(node.textContent, name + name);
});

test("s builds SVG elements, and asGroup moves a picture's drawing into a placed group", () => {
  const picture = s("svg", { class: "die", viewBox: "0 0 10 10" }, s("rect", { width: 10 }), s("circle", { r: 2 }));
  assert.equal(picture.namespaceURI, "http://www.w3.org/2000/svg");
  const group = asGroup(picture, "translate(5 5)");
  assert.equal(group.namespaceURI, "http://www.w3.org/2000/svg");
  assert.equal(group.getAttribute("transform"), "translate(5 5)");
  assert.equal(group.getAttribute("class"), "die");
  assert.deepEqual([...group.children].map((c) => c.tagName), ["rect", "circle"]);
  assert.equal(picture.childNodes.length, 0);
});

test("clear, append and replaceChildren return the node they change", () => {
  const box = h("div", {}, "old", h("span"));
  assert.equal(append(box, "new"), box);
  assert.equal(box.textContent, "oldnew");
  assert.equal(replaceChildren(box, h("b", { text: "only" })), box);
  assert.equal(box.innerHTML, "<b>only</b>");
  assert.equal(clear(box).childNodes.length, 0);
});

/** @param {string} value */
function nameField(value) {
  return h("input", { id: "name", value });
}

test("keepingPlace gives the focus and the caret back to the rebuilt field of the same id", () => {
  const root = document.body.appendChild(h("div", {}, nameField("Ada Lovelace")));
  const field = /** @type {HTMLInputElement} */ (document.getElementById("name"));
  field.focus();
  field.setSelectionRange(2, 5);
  keepingPlace(() => replaceChildren(root, nameField("Ada Lovelace")));
  const rebuilt = /** @type {HTMLInputElement} */ (document.getElementById("name"));
  assert.notEqual(rebuilt, field);
  assert.equal(document.activeElement, rebuilt);
  assert.deepEqual([rebuilt.selectionStart, rebuilt.selectionEnd], [2, 5]);
});

test("keepingPlace finds a button again by what it does", () => {
  const buttons = () => [h("button", { "data-action": "roll" }), h("button", { "data-action": "stop" })];
  const root = document.body.appendChild(h("div", {}, buttons()));
  /** @type {HTMLElement} */ (root.querySelector('[data-action="stop"]')).focus();
  keepingPlace(() => replaceChildren(root, buttons()));
  assert.equal(/** @type {HTMLElement} */ (document.activeElement).dataset.action, "stop");
});

test("keepingPlace asks the fallback only when the focused element is gone for good", () => {
  const root = document.body.appendChild(h("div", {}, h("button", { "data-action": "take 25" }), h("button", { id: "board" })));
  /** @type {HTMLElement} */ (root.querySelector("button")).focus();
  let asked = 0;
  const fallback = () => ((asked += 1), document.getElementById("board"));
  keepingPlace(() => /** @type {Element} */ (root.querySelector("button")).remove(), fallback);
  assert.equal(asked, 1);
  assert.equal(document.activeElement?.id, "board");
  keepingPlace(() => root.append(h("span")), fallback); // the focused board stays
  assert.equal(asked, 1);
  assert.equal(document.activeElement?.id, "board");
});

test("arrow keys move the focus among the enabled action buttons, wrapping around", () => {
  const bar = arrowKeys(h("div", {},
    h("button", { "data-action": "a" }), h("button", { "data-action": "b", disabled: true }),
    h("button", { "data-action": "c" }), h("button", { text: "not an action" })));
  document.body.append(bar);
  const [a, , c] = /** @type {HTMLElement[]} */ ([...bar.querySelectorAll("button")]);
  /** @param {string} key */
  const press = (key) => {
    const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });
    /** @type {Element} */ (document.activeElement).dispatchEvent(event);
    return event.defaultPrevented;
  };
  a.focus();
  assert.equal(press("ArrowRight"), true);
  assert.equal(document.activeElement, c);
  press("ArrowDown");
  assert.equal(document.activeElement, a);
  press("ArrowLeft");
  assert.equal(document.activeElement, c);
  assert.equal(press("Enter"), false);
  assert.equal(document.activeElement, c);
});
