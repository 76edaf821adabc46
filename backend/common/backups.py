"""Whole-database backups: ``pg_dump``/``pg_restore`` (custom format) for PostgreSQL, SQLite's
online backup API for SQLite. Both copy a consistent snapshot while the site keeps running.

Used by ``manage.py backup_create`` and ``manage.py backup_restore``; docs/operations/backups.md
gives the procedure.
"""

import os
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from django.db import connections

POSTGRESQL, SQLITE = "postgresql", "sqlite"
# What each kind of backup file starts with, so a restore refuses the wrong kind at once.
SIGNATURES = {POSTGRESQL: b"PGDMP", SQLITE: b"SQLite format 3\x00"}
SUFFIXES = {POSTGRESQL: ".dump", SQLITE: ".sqlite3"}


class BackupError(Exception):
    pass


def database_kind(alias: str = "default") -> str:
    vendor = connections[alias].vendor
    if vendor not in SIGNATURES:
        raise BackupError(f"Backups support PostgreSQL and SQLite, not {vendor}.")
    return vendor


def _pg_command(alias: str) -> tuple[list[str], dict[str, str]]:
    """The connection arguments and environment for pg_dump and pg_restore (the password
    travels in the environment, never on the command line)."""
    db = connections[alias].settings_dict
    arguments = [f"--dbname={db['NAME']}"]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            arguments.append(f"{option}={db[key]}")
    environment = dict(os.environ)
    if db.get("PASSWORD"):
        environment["PGPASSWORD"] = str(db["PASSWORD"])
    if sslmode := db.get("OPTIONS", {}).get("sslmode"):
        environment["PGSSLMODE"] = str(sslmode)
    return arguments, environment


def _run(command: list[str], environment: dict[str, str]) -> None:
    try:
        subprocess.run(command, env=environment, check=True, capture_output=True, text=True)  # noqa: S603
    except FileNotFoundError:
        raise BackupError(f"{command[0]} is not installed (Debian: apt-get install postgresql-client).") from None
    except subprocess.CalledProcessError as error:
        raise BackupError(f"{command[0]} failed: {error.stderr.strip()}") from None


def backup_create(*, path: Path, alias: str = "default") -> Path:
    """Write a backup of the database ``alias`` to ``path``."""
    kind = database_kind(alias)
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == POSTGRESQL:
        arguments, environment = _pg_command(alias)
        _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={path}", *arguments], environment)
        return path
    connection = connections[alias]
    connection.ensure_connection()
    with closing(sqlite3.connect(path)) as target:
        connection.connection.backup(target)
    return path


def backup_restore(*, path: Path, alias: str = "default") -> None:
    """Replace everything in the database ``alias`` with the backup at ``path``.

    PostgreSQL: objects in the backup are dropped and recreated in one transaction, so a failed
    restore changes nothing. SQLite: every page of the database is replaced by the backup's.
    """
    kind = database_kind(alias)
    with path.open("rb") as backup:
        if backup.read(len(SIGNATURES[kind])) != SIGNATURES[kind]:
            raise BackupError(f"{path} is not a {kind} backup made by backup_create.")
    connection = connections[alias]
    if connection.in_atomic_block:
        raise BackupError("A restore cannot run inside a transaction.")
    if kind == POSTGRESQL:
        arguments, environment = _pg_command(alias)
        connection.close()  # our own session must not hold locks on the tables being replaced
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--exit-on-error",
                *arguments,
                str(path),
            ],
            environment,
        )
        return
    connection.ensure_connection()
    with closing(sqlite3.connect(path)) as source:
        source.backup(connection.connection)
