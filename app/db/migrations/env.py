"""Alembic's environment: run on the connection :func:`app.db.migrate` passes in."""
from alembic import context

from app.db.schema import metadata


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):     # run by Alembic (a doctest collector only imports it)
    run()
