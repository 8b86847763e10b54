"""What the tests share beside their fixtures (those are in tests/conftest.py)."""
