"""No input gets a 500: every REST route and every WebSocket message type, fed random and
hostile JSON, answers with a 4xx and a JSON error (on a socket: an error message, and the
table is unchanged). The routes are taken from the app, so a new one is covered at once.

Hostile here is what Python's JSON parser accepts but nothing after it can use: numbers
beyond a float's range (`1e400`), `NaN` and `Infinity`, and lone surrogates (`"\\ud800"`),
in values and in keys."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.server import create_app
from spieltisch.server.app import MESSAGE_TYPES
from spieltisch.server.limits import Limits, strict_json
from tests.server.database import db_url
from tests.server.helpers import TestClient, join, make_table, receive_state, threads

EXAMPLES = 25  # per route and per message type: the whole module runs in seconds
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

HOSTILE_TEXT = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", '"\\ud800"', '"a\\udfffb"']
"""JSON text that Python parses but that is no number or no text."""
HOSTILE_KEY = '"\\udc80"'
JSON = {"content-type": "application/json"}


def plain_json() -> st.SearchStrategy[Any]:
    """Any valid JSON value, kept small."""
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(10**30), max_value=10**30)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=12)
    )
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
        max_leaves=8,
    )


@st.composite
def hostile_object(draw: st.DrawFn, fields: list[str]) -> str:
    """The JSON text of an object with the route's own fields (so that it gets past a
    shallow check) and one hostile value or key somewhere in it."""
    keys = st.sampled_from(fields) | st.text(max_size=6) if fields else st.text(max_size=6)
    base = draw(st.dictionaries(keys, plain_json(), max_size=4))
    spot = draw(keys)
    base.pop(spot, None)
    hostile = draw(st.sampled_from(HOSTILE_TEXT))
    wrapped = draw(st.sampled_from(["{}", "[{}]", "[1, {}]", '{"x": {}}']))
    placed = wrapped.replace("{}", hostile, 1)
    pairs = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in base.items()]
    if draw(st.booleans()):
        pairs.append(f"{json.dumps(spot)}: {placed}")
    else:
        pairs.append(f"{HOSTILE_KEY}: {json.dumps(draw(plain_json()))}")
    order = draw(st.permutations(pairs))
    return "{" + ", ".join(order) + "}"


def is_hostile(text: str) -> bool:
    try:
        strict_json(text)
    except ValueError:
        return True
    return False


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = db_url(tmp_path, "hostile")
    limits = Limits(tables_per_minute=0)  # random bodies may make tables; none is refused
    app = create_app(url, bot_delay=0.0, executor=threads(), limits=limits)
    with TestClient(app, raise_server_exceptions=False) as found:
        yield found


def rest_routes(client: TestClient) -> list[tuple[str, APIRoute]]:
    routes = [r for r in client.app.routes if isinstance(r, APIRoute)]  # type: ignore[attr-defined]
    found = [(method, route) for route in routes for method in sorted(route.methods or ())]
    assert len(found) >= 12, "the app's REST routes are all found"
    return found


def body_fields(route: APIRoute) -> list[str]:
    """The names of the fields of a route's JSON body (none when it reads no body)."""
    if route.body_field is None:
        return []
    model = route.body_field.field_info.annotation
    return list(getattr(model, "model_fields", {}))


def path_values(table_id: str) -> st.SearchStrategy[str]:
    """What a path parameter may be: a real table, random text, a lone surrogate."""
    texts = st.text(max_size=20).filter(lambda t: t not in (".", ".."))
    return st.sampled_from([table_id, "\ud800", "..%2f", "x" * 300]) | texts


def fill(path: str, draw: Callable[[st.SearchStrategy[str]], str], table_id: str) -> str:
    while "{" in path:
        head, rest = path.split("{", 1)
        name, tail = rest.split("}", 1)
        value = draw(path_values(table_id))
        kept = "/" if name.endswith(":path") else ""
        path = head + quote(value, safe=kept, errors="surrogatepass") + tail
    return path


def check_refusal(response: Any, where: str) -> None:
    """A refusal is a 4xx with a JSON body saying what is wrong (a missing file of the
    browser's modules is the one plain-text answer)."""
    assert response.status_code < 500, (where, response.status_code, response.text)
    if response.status_code < 400:
        return
    if response.headers["content-type"].startswith("text/plain"):
        assert where.startswith("GET /vendor/"), where
        return
    said = response.json()
    assert ("error" in said and "message" in said) or "detail" in said, (where, said)


@pytest.mark.slow  # fuzzing: hundreds of requests
def test_every_rest_route_refuses_hostile_and_random_bodies(client: TestClient) -> None:
    table_id = make_table(client, [None, None])["id"]
    for method, route in rest_routes(client):
        fuzz_route(client, method, route, table_id)


def fuzz_route(client: TestClient, method: str, route: APIRoute, table_id: str) -> None:
    fields = body_fields(route)

    @FUZZ
    @given(data=st.data())
    def answers(data: st.DataObject) -> None:
        path = fill(route.path, data.draw, table_id)
        hostile = data.draw(st.booleans())
        if hostile:
            body = data.draw(hostile_object(fields))
        else:
            body = data.draw(st.one_of(st.text(max_size=40), plain_json().map(json.dumps)))
        sent = body.encode("utf-8", "surrogatepass")
        response = client.request(method, path, content=sent, headers=JSON)
        where = f"{method} {path} {body[:80]!r}"
        check_refusal(response, where)
        if fields and hostile:
            assert 400 <= response.status_code < 500, where

    answers()


@pytest.mark.parametrize(
    "raw",
    [b"\xff\xfe{}", b"[" * 30_000, b'{"a": "\xed\xa0\x80"}', b"", b"null", b"\x00"],
    ids=["not-utf8", "deep", "encoded-surrogate", "empty", "null", "nul"],
)
def test_malformed_bodies_get_a_4xx_on_every_route_with_a_body(
    client: TestClient, raw: bytes
) -> None:
    table_id = make_table(client, [None, None])["id"]
    for method, route in rest_routes(client):
        if route.body_field is None:
            continue
        path = route.path.replace("{table_id}", table_id)
        response = client.request(method, path, content=raw, headers=JSON)
        assert 400 <= response.status_code < 500, (path, response.status_code, response.text)
        check_refusal(response, f"{method} {path}")


@pytest.mark.parametrize(
    "body",
    [
        '{"game": "\\ud800", "seats": [{}, {}]}',
        '{"game": "pickomino", "seats": [{"bot": "\\ud800"}, {}]}',
        '{"game": "pickomino", "seats": [{}, {}], "options": {"\\ud800": 1}}',
        '{"game": "pickomino", "seats": [{}, {}], "clock": 1e400}',
        '{"game": "pickomino", "seats": [{}, {}], "seed": NaN}',
    ],
)
def test_a_new_table_with_a_lone_surrogate_or_1e400_is_invalid_json(
    client: TestClient, body: str
) -> None:
    response = client.post("/api/tables", content=body, headers=JSON)
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["type"] == "json_invalid"
    assert client.get("/api/tables").json() == []


def test_a_seat_of_1e400_is_invalid_json(client: TestClient) -> None:
    table_id = make_table(client, [None, None])["id"]
    body = '{"name": "Ada", "seat": 1e400}'
    response = client.post(f"/api/tables/{table_id}/join", content=body, headers=JSON)
    assert response.status_code == 422, response.text
    assert "beyond the range of a float" in response.json()["detail"][0]["ctx"]["error"]
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert all(seat["name"] is None for seat in seats)


def socket_routes(client: TestClient) -> list[str]:
    paths = [r.path for r in client.app.routes if isinstance(r, APIWebSocketRoute)]  # type: ignore[attr-defined]
    assert paths, "the app's WebSocket routes are found"
    return paths


@st.composite
def hostile_message(draw: st.DrawFn, kind: str) -> str:
    """A message of type `kind` with hostile JSON in it, or random text."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.text(max_size=60).filter(lambda t: t.strip() != ""))
    fields = ["type", "action", "version", "text"]
    text = draw(hostile_object(fields))
    return '{"type": ' + json.dumps(kind) + ", " + text[1:]


@pytest.mark.slow  # fuzzing: hundreds of messages
def test_every_socket_message_type_refuses_hostile_json(client: TestClient) -> None:
    table_id = make_table(client, [None, None])["id"]
    token = join(client, table_id, "Ada")
    join(client, table_id, "Bea")
    before = client.get(f"/api/tables/{table_id}").json()
    for path in socket_routes(client):
        url = path.replace("{table_id}", table_id) + f"?token={token}"
        with client.websocket_connect(url) as ws:
            first = receive_state(ws)
            assert first["type"] == "state"
            for kind in (*MESSAGE_TYPES, "no such type"):

                @FUZZ
                @given(message=hostile_message(kind))
                def refused(message: str) -> None:
                    assert is_hostile(message) or not _valid_message(message), message
                    ws.send_text(message)
                    answer = receive_state(ws)
                    assert answer["type"] == "error", (message, answer)
                    assert answer["code"] and answer["message"]

                refused()
            ws.send_text(json.dumps({"type": "sync"}))
            after = receive_state(ws)
    assert after["type"] == "state" and after["version"] == first["version"]
    assert after["log"] == first["log"]
    assert unmarked(client.get(f"/api/tables/{table_id}").json()) == unmarked(before)


def unmarked(view: dict[str, Any]) -> dict[str, Any]:
    """A table view without who is here and when (the test's own socket changes those)."""
    seats = [
        {k: v for k, v in seat.items() if k not in ("presence", "last_seen")}
        for seat in view["seats"]
    ]
    return {**view, "seats": seats}


def test_random_actions_are_refused_and_change_nothing(client: TestClient) -> None:
    """Well-formed action messages with any action text and any version: none is legal, so
    each gets an error and the table stays as it was."""
    table_id = make_table(client, [None, None])["id"]
    token = join(client, table_id, "Ada")
    join(client, table_id, "Bea")
    with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
        first = receive_state(ws)
        legal = set(first["view"].get("legal_actions") or [])
        actions = st.text(max_size=20).filter(lambda a: a not in legal)

        @FUZZ
        @given(action=actions, version=plain_json())
        def refused(action: str, version: Any) -> None:
            ws.send_text(json.dumps({"type": "action", "action": action, "version": version}))
            answer = receive_state(ws)
            assert answer["type"] == "error", (action, version, answer)

        refused()
        ws.send_text(json.dumps({"type": "sync"}))
        after = receive_state(ws)
    assert after["version"] == first["version"] and after["log"] == first["log"]


def _valid_message(text: str) -> bool:
    """Whether `text` could be a message the table takes (an object of a known type)."""
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, dict) and value.get("type") in MESSAGE_TYPES


def test_an_unknown_message_type_names_every_type(client: TestClient) -> None:
    table_id = make_table(client, [None, None])["id"]
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        receive_state(ws)
        ws.send_text(json.dumps({"type": "dance"}))
        answer = receive_state(ws)
    assert answer["code"] == "bad_message"
    assert all(f"'{kind}'" in answer["message"] for kind in MESSAGE_TYPES)


TABLE_IDS = st.text(min_size=1, max_size=20).filter(lambda t: "/" not in t and t not in (".", ".."))
"""Any table id a path can carry: '.' and '..' are not ids but steps of the path itself."""


@FUZZ
@given(table_id=TABLE_IDS, token=st.text())
def test_a_socket_to_any_table_with_any_token_gets_a_clear_answer(
    client: TestClient, table_id: str, token: str
) -> None:
    path = quote(table_id, safe="", errors="surrogatepass")
    query = quote(token, safe="", errors="surrogatepass")
    with client.websocket_connect(f"/api/tables/{path}/ws?token={query}") as ws:
        answer = receive_state(ws)
    assert answer["type"] in ("error", "state"), answer
