"""spieltisch: a digital game table for Pickomino, Karolinchen and Riff Raff."""

__version__ = "0.1.0"
__all__ = ["__version__"]
