"""The account routes (mounted by `server.app`):

GET  /api/session                the signed-in account, or {"account": null}
POST /api/account/signup         a new account, signed in; this browser's guest seats become its
POST /api/account/signin         signed in (a new session); guest seats become the account's
POST /api/account/signout        the session ends
POST /api/account/password       a new password; the account's other sessions end
POST /api/account/delete         the account goes (its games stay, under "former player")
GET  /api/account/data           everything kept of the account, as a JSON file
PUT  /api/account/settings       the account's settings (its language)
GET  /api/account/tables         "My tables": unfinished tables it sits at, whose turn it is
POST /api/tables/{id}/seat       a fresh seat token for the account's seat at a table
(The account's e-mail address and mail choices, GET and PUT /api/account/mail, are
`server.mail.routes`'.)
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from spieltisch.server.accounts.seating import new_seat_token
from spieltisch.server.accounts.service import MOST_CLAIMS, Accounts, account_json
from spieltisch.server.accounts.sessions import clear_cookie, cookie_secret, set_cookie

__all__ = ["account_router"]


class SeatClaim(BaseModel):
    table: str = Field(max_length=64)
    token: str = Field(max_length=128)


class Credentials(BaseModel):
    name: str = Field(description="the user name", max_length=256)
    password: str = Field(description="the password", max_length=1024)
    seats: list[SeatClaim] = Field(
        default_factory=list,
        max_length=MOST_CLAIMS,
        description="this browser's guest seats (table and token) that become the account's",
    )


class PasswordChange(BaseModel):
    old: str = Field(max_length=1024)
    new: str = Field(max_length=1024)


class Deletion(BaseModel):
    password: str = Field(max_length=1024)


class SettingsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    language: str | None = Field(None, description="de, en, fr, it or nl")


class SeatToken(BaseModel):
    seat: int
    token: str


def account_router(accounts: Accounts, route_class: type[APIRoute]) -> APIRouter:
    router = APIRouter(prefix="/api", route_class=route_class, tags=["accounts"])
    idle = accounts.settings.session_idle

    @router.get("/session")
    async def session(request: Request) -> Response:
        account = await accounts.current(request)
        answer = JSONResponse({"account": None if account is None else account_json(account)})
        secret = cookie_secret(request)
        if account is None and secret is not None:
            clear_cookie(answer, request)  # expired or ended elsewhere
        elif secret is not None:
            set_cookie(answer, request, secret, idle)  # the browser keeps it as long again
        return answer

    async def signed_in(request: Request, account: Any, body: Credentials, status: int) -> Response:
        await accounts.claim_seats(account, [(s.table, s.token) for s in body.seats])
        secret = await accounts.start_session(account, request)
        answer = JSONResponse({"account": account_json(account)}, status)
        set_cookie(answer, request, secret, idle)
        return answer

    @router.post("/account/signup", status_code=201)
    async def sign_up(body: Credentials, request: Request) -> Response:
        address = request.client.host if request.client else None
        account = await accounts.sign_up(body.name, body.password, address)
        return await signed_in(request, account, body, 201)

    @router.post("/account/signin")
    async def sign_in(body: Credentials, request: Request) -> Response:
        address = request.client.host if request.client else None
        account = await accounts.sign_in(body.name, body.password, address)
        return await signed_in(request, account, body, 200)

    @router.post("/account/signout", status_code=204)
    async def sign_out(request: Request) -> Response:
        await accounts.end_session(request)
        answer = Response(status_code=204)
        clear_cookie(answer, request)
        return answer

    @router.post("/account/password", status_code=204)
    async def change_password(body: PasswordChange, request: Request) -> Response:
        account = await accounts.signed_in(request)
        await accounts.change_password(account, body.old, body.new, request)
        return Response(status_code=204)

    @router.post("/account/delete", status_code=204)
    async def delete(body: Deletion, request: Request) -> Response:
        account = await accounts.signed_in(request)
        address = request.client.host if request.client else None
        await accounts.delete(account, body.password, address)
        answer = Response(status_code=204)
        clear_cookie(answer, request)
        return answer

    @router.get("/account/data")
    async def data(request: Request) -> Response:
        account = await accounts.signed_in(request)
        text = json.dumps(await accounts.data(account), ensure_ascii=False, indent=1)
        attachment = 'attachment; filename="spieltisch-account.json"'
        headers = {"Content-Disposition": attachment, "Cache-Control": "no-store"}
        return Response(text, media_type="application/json", headers=headers)

    @router.put("/account/settings")
    async def settings(body: SettingsIn, request: Request) -> dict[str, Any]:
        account = await accounts.signed_in(request)
        changed = await accounts.change_settings(account, body.model_dump(exclude_unset=True))
        return {"account": account_json(changed)}

    @router.get("/account/tables")
    async def my_tables(request: Request) -> list[dict[str, Any]]:
        return await accounts.my_tables(await accounts.signed_in(request))

    @router.post("/tables/{table_id}/seat")
    async def seat(table_id: str, request: Request) -> SeatToken:
        account = await accounts.signed_in(request)
        seat, token = await new_seat_token(accounts.lobby, table_id, account.id)
        return SeatToken(seat=seat, token=token)

    return router
