"""A WebSocket text message that is not UTF-8 closes its connection with one log line.

Uvicorn's WebSocket protocol logs a whole traceback for every such message (and another when
a second one arrives while the first closing is under way): a client could fill the log with
them. Here the message is checked before uvicorn decodes it; a bad one is logged once per
connection, without a traceback, and the connection is closed with code 1007 (invalid data),
as the WebSocket standard asks. Later messages on that connection are dropped unread.

A handshake the application refused with an HTTP answer of its own (`limits.SocketGate`'s
429) is complete once that answer is sent: uvicorn would otherwise log an error for each
refused socket, a line per reconnect in a storm.
"""

from __future__ import annotations

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode
from websockets.protocol import State

__all__ = ["CheckedWebSocketProtocol"]


class CheckedWebSocketProtocol(WebSocketsSansIOProtocol):
    """Uvicorn's WebSocket protocol, closing a connection whose text is not UTF-8, and
    quiet about a handshake refused with an HTTP answer."""

    async def send(self, message: ASGISendEvent) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            self.handshake_complete = True  # answered: nothing left to complete

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent and not self._utf8():
            self.frames = []
            self._refuse_text()
            return
        super().send_receive_event_to_app()

    def _utf8(self) -> bool:
        try:
            b"".join(self.frames).decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    def _refuse_text(self) -> None:
        client = "{}:{}".format(*self.client) if self.client else "a client"
        self.logger.warning(
            "%s sent a WebSocket text message that is not UTF-8; its connection is closed",
            client,
        )
        if self.conn.state is State.OPEN:
            self.conn.send_close(CloseCode.INVALID_DATA, "text must be UTF-8")
        if self.conn.close_sent is None:  # the closing began otherwise: just end it
            self.close_sent = True
            self.transport.close()
            return
        self.handle_parser_exception()  # tells the app, sends the close frame, closes
