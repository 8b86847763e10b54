// Any game: its public facts as a list, and the legal actions (the game's text notation) as buttons.

import { append, h } from "../dom.js";
import { t } from "../i18n.js";

function facts(view) {
  const skip = new Set(["legal_actions", "game", "viewer", "state"]);
  return Object.entries(view || {}).filter(([key]) => !skip.has(key)).map(([key, value]) =>
    h("div", { class: "fact" }, h("dt", { text: key }), h("dd", { text: JSON.stringify(value) })));
}

export function render(root, ctx) {
  const legal = (ctx.view && ctx.view.legal_actions) || [];
  append(root, 
    h("dl", { class: "facts" }, facts(ctx.view)),
    legal.length
      ? h("div", { class: "actions" }, h("h3", { text: t("table.actions") }),
        legal.map((action) => h("button", { class: "big", "data-action": action, text: action, onclick: () => ctx.act(action) })))
      : null);
}
