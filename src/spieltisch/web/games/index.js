// The browser view of each game; a game without its own view gets the generic one, which
// shows the position and offers the legal actions as buttons (so every registered game plays).

import * as generic from "./generic.js";
import * as karolinchen from "./karolinchen.js";
import * as pickomino from "./pickomino.js";
import * as riffraff from "./riffraff.js";

const VIEWS = { pickomino, karolinchen, riffraff };

export function gameView(name) {
  return VIEWS[name] || generic;
}
