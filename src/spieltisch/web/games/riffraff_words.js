// Riff Raff's words that are built from numbers: pure functions, tested in Node.

import { formatNumber, t } from "../i18n.js";

/**
 * "Heel: 6.5° to port · 0.2° bow down", in the current language's words and numbers.
 * @param {number} roll
 * @param {number} pitch
 */
export function heelText(roll, pitch) {
  const side = Math.abs(roll) >= 0.05 ? (roll > 0 ? t("rr.starboard") : t("rr.port")) : "";
  const end = Math.abs(pitch) >= 0.05 ? (pitch > 0 ? t("rr.bow_down") : t("rr.stern_down")) : "";
  const line = t("rr.heel_line", { heel: t("rr.heel"), roll: formatNumber(Math.abs(roll), 1), side, pitch: formatNumber(Math.abs(pitch), 1), end });
  return line.replace(/ +·/, " ·").trim();
}
