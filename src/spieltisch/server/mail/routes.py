"""The mail routes (mounted by `server.app`):

GET  /api/account/mail     the signed-in account's address and mail choices, and whether the
                           site sends mail at all
PUT  /api/account/mail     change them: {"email": "..." or null, "turns": bool, "digest": bool}
GET  /mail/unsubscribe     ?a=ACCOUNT&t=TOKEN: a page that asks before it stops the mail
POST /mail/unsubscribe     the same query: stops all mail to the account (the page's button,
                           or a mail program's one-click POST of RFC 8058)

The address is the account's own: only these routes (with the session, and for PUT from the
site's own page, as every account change) and the account's data download show it.
The unsubscribe link needs no sign-in: its token is made with the account's own key.
"""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import HTMLResponse

from spieltisch.server.accounts.service import Accounts
from spieltisch.server.common import TableError
from spieltisch.server.mail.address import MAX_ADDRESS, AddressError, read_address
from spieltisch.server.mail.store import MailChoice, MailStore, Recipient
from spieltisch.server.mail.texts import text
from spieltisch.server.mail.tokens import UNSUBSCRIBE_PATH, new_mail_secret, token_matches
from spieltisch.server.mail.turns import TurnMail

__all__ = ["mail_router"]

PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    "Referrer-Policy": "same-origin",
    "X-Robots-Tag": "noindex",
}
"""The unsubscribe page loads nothing, posts only to this site, and its link (with the token)
is never sent to another site."""


class MailIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(None, max_length=2 * MAX_ADDRESS, description="null: no address")
    turns: bool = Field(False, description="a mail when it is my turn (batched)")
    digest: bool = Field(False, description="a daily digest of the tables waiting for me")


def mail_router(accounts: Accounts, mail: TurnMail, route_class: type[APIRoute]) -> APIRouter:
    router = APIRouter(route_class=route_class, tags=["mail"])
    lobby = accounts.lobby
    store = MailStore(lobby.store.engine)

    def shown(choice: MailChoice) -> dict[str, Any]:
        return {**choice.__dict__, "sending": mail.sending}

    @router.get("/api/account/mail")
    async def get_mail(request: Request) -> dict[str, Any]:
        account = await accounts.signed_in(request)
        return shown(await lobby.storage.read(store.choice, account.id))

    @router.put("/api/account/mail")
    async def put_mail(body: MailIn, request: Request) -> dict[str, Any]:
        account = await accounts.signed_in(request)
        choice = _checked(body)
        every = mail.settings.digest_every if mail.settings else 24 * 3600.0
        now = lobby.clock.now()
        secret = new_mail_secret()
        await lobby.storage.write(store.set_choice, account.id, choice, secret, now, every)
        return shown(choice)

    async def recipient(request: Request) -> Recipient | None:
        """The account the link is for, if its token is right (else None, as for nobody)."""
        account_id = request.query_params.get("a", "")[:64]
        token = request.query_params.get("t", "")[:128]
        try:
            to = await lobby.storage.read(store.recipient, account_id)
        except SQLAlchemyError:
            return None
        return to if to is not None and token_matches(to.secret, account_id, token) else None

    @router.get(UNSUBSCRIBE_PATH, response_class=HTMLResponse)
    async def ask(request: Request) -> HTMLResponse:
        to = await recipient(request)
        if to is None:
            return _page(None, text(None, "page.bad"), status=404)
        question = text(to.language, "page.ask", address=to.email)
        return _page(to.language, question, button=text(to.language, "page.button"))

    @router.post(UNSUBSCRIBE_PATH, response_class=HTMLResponse)
    async def unsubscribe(request: Request) -> HTMLResponse:
        to = await recipient(request)
        if to is None:
            return _page(None, text(None, "page.bad"), status=404)
        await lobby.storage.write(store.unsubscribe, to.account_id)
        return _page(to.language, text(to.language, "page.done"))

    return router


def _checked(body: MailIn) -> MailChoice:
    """The choice as it is kept, or `bad_email`: mail needs an address."""
    try:
        email = None if body.email in (None, "") else read_address(body.email or "")
    except AddressError as error:
        raise TableError("bad_email", str(error)) from None
    if email is None and (body.turns or body.digest):
        raise TableError("bad_email", "An e-mail address is needed for mail.")
    return MailChoice(email, body.turns, body.digest)


def _page(
    language: str | None, sentence: str, button: str | None = None, status: int = 200
) -> HTMLResponse:
    """A small page of its own (the web client is not needed to stop mail)."""
    lang = html.escape(language or "en")
    title = html.escape(text(language, "page.title"))
    form = (
        f'<form method="post"><button type="submit">{html.escape(button)}</button></form>'
        if button
        else ""
    )
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{STYLE}</style></head><body><main>"
        f"<h1>{title}</h1><p>{html.escape(sentence)}</p>{form}"
        '<p><a href="/#/account">spieltisch</a></p></main></body></html>'
    )
    return HTMLResponse(body, status, headers=PAGE_HEADERS)


STYLE = (
    "body{font-family:system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f6f4ee;"
    "color:#1d1d1b}main{max-width:32rem;margin:auto}button{font:inherit;padding:.6rem 1.2rem;"
    "border-radius:.4rem;border:1px solid #1d4e89;background:#1d4e89;color:#fff;cursor:pointer}"
    "button:focus-visible,a:focus-visible{outline:3px solid #c75b12;outline-offset:2px}"
    "a{color:#1d4e89}"
)
