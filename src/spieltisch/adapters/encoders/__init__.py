"""One encoder per registered game: its action vocabulary and observation vector."""

from __future__ import annotations

from spieltisch.adapters.encoders.karolinchen import KarolinchenEncoder
from spieltisch.adapters.encoders.pickomino import PickominoEncoder
from spieltisch.adapters.encoders.riffraff import RiffRaffEncoder
from spieltisch.adapters.encoding import Encoder

__all__ = ["ENCODERS", "KarolinchenEncoder", "PickominoEncoder", "RiffRaffEncoder"]

ENCODERS: dict[str, type[Encoder]] = {
    "pickomino": PickominoEncoder,
    "karolinchen": KarolinchenEncoder,
    "riffraff": RiffRaffEncoder,
}
