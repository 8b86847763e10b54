"""The store's schema as Alembic revisions: `env.py` runs them on the connection the store
opened, `versions/` holds one file per schema (see docs/architecture.md, "Schema migrations")."""
