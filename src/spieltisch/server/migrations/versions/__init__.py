"""One Alembic revision per schema, numbered 0001, 0002, ... in order."""
