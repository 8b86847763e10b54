// The account page's mail choices: an address (shown to nobody else), a mail when it is the
// player's turn and a daily digest, both off until chosen here.
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { accountErrorText } from "./account_model.js";

/** @typedef {{ email: string | null, turns: boolean, digest: boolean, sending: boolean }} MailChoice */

/**
 * The mail section of the account page, built once per page so that what is typed survives
 * redraws; it loads the account's choices itself.
 * @param {{ notify: (text: string) => void }} page
 */
export function mailPanel(page) {
  const address = h("input", { id: "mail-address", name: "mail-address", type: "email", autocomplete: "email", maxlength: 254, spellcheck: "false", autocapitalize: "none" });
  const turns = h("input", { type: "checkbox", id: "mail-turns" });
  const digest = h("input", { type: "checkbox", id: "mail-digest" });
  const error = h("p", { class: "form-error", id: "mail-error", role: "alert" });
  const note = h("p", { class: "muted field-hint", id: "mail-not-sending" });
  const form = h("form", { class: "account-form", id: "mail-form", novalidate: true, onsubmit: (/** @type {Event} */ event) => {
    event.preventDefault();
    save();
  } });
  const section = h("section", { class: "panel account-panel", id: "mail-panel", "aria-labelledby": "mail-title" });
  /** @type {MailChoice | null} */
  let known = null;

  /** @param {MailChoice} choice */
  function show(choice) {
    known = choice;
    address.value = choice.email || "";
    turns.checked = choice.turns;
    digest.checked = choice.digest;
    draw();
  }

  async function load() {
    try {
      show(await api("/api/account/mail"));
    } catch {
      section.hidden = true; // nothing to show without the account's choices
    }
  }

  async function save() {
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
    if (button.disabled) return;
    button.disabled = true;
    error.textContent = "";
    address.removeAttribute("aria-invalid");
    try {
      const body = { email: address.value.trim() || null, turns: turns.checked, digest: digest.checked };
      show(await api("/api/account/mail", body, "PUT"));
      page.notify(t("mail.saved"));
    } catch (refused) {
      error.textContent = accountErrorText(/** @type {import("./account_model.js").Refusal} */ (refused));
      address.setAttribute("aria-invalid", "true");
      address.focus();
    } finally {
      button.disabled = false;
    }
  }

  function draw() {
    note.textContent = known && !known.sending ? t("mail.not_sending") : "";
    note.hidden = !note.textContent;
    replaceChildren(form,
      h("div", { class: "field" }, h("label", { for: "mail-address", text: t("mail.address") }), address),
      h("label", { class: "mail-choice" }, turns, " ", h("span", { text: t("mail.turns") })),
      h("label", { class: "mail-choice" }, digest, " ", h("span", { text: t("mail.digest") })),
      error,
      h("button", { type: "submit", id: "mail-save", text: t("mail.save") }));
    replaceChildren(section,
      h("h2", { id: "mail-title", text: t("mail.title") }),
      h("p", { class: "muted field-hint", id: "mail-doc", text: t("mail.doc") }),
      note,
      form);
  }

  draw();
  load();
  return { section, draw };
}
