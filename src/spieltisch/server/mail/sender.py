"""Sending a mail with aiosmtplib: asynchronous, so the event loop never waits on the SMTP
server, and bounded, so a server that hangs costs one failed try (`MailFailed`)."""

from __future__ import annotations

import asyncio
import logging
import ssl
from email.message import EmailMessage
from typing import Protocol

import aiosmtplib

from spieltisch.server.mail.settings import SmtpServer

__all__ = ["MailFailed", "Sender", "SmtpSender"]

log = logging.getLogger(__name__)


class MailFailed(Exception):
    """The SMTP server did not take the mail; the message says why (never a password)."""


class Sender(Protocol):
    async def send(self, message: EmailMessage) -> None:
        """Hand the mail to the server, or raise `MailFailed`."""
        ...


class SmtpSender:
    """Sends each mail over a connection of its own to one SMTP server."""

    def __init__(self, server: SmtpServer, timeout: float) -> None:
        self.server = server
        self.timeout = timeout

    async def send(self, message: EmailMessage) -> None:
        server = self.server
        try:
            await asyncio.wait_for(
                aiosmtplib.send(
                    message,
                    hostname=server.host,
                    port=server.port,
                    username=server.user,
                    password=server.password,
                    timeout=self.timeout,
                    use_tls=server.tls,
                    start_tls=server.starttls,
                ),
                3 * self.timeout,
            )
        except TimeoutError:
            raise MailFailed(f"{server.shown()} did not answer within {self.timeout:g} s") from None
        except (aiosmtplib.SMTPException, OSError, ssl.SSLError) as error:
            raise MailFailed(f"{server.shown()}: {type(error).__name__}: {error}") from None
