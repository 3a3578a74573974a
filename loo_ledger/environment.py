"""Reading the settings' environment variables. A value that cannot be meant stops the service
at start-up, naming the variable and what it takes: not a traceback deep in Django, a 500 at
the first request that needs it, or (for a switch) a silent "off". Unset or empty, each is its
default (``NAME=`` in an environment file means "not set")."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NoReturn

from django.core.exceptions import ImproperlyConfigured

_ON = {"1", "true", "yes", "on"}
_OFF = {"0", "false", "no", "off"}


def refuse(message: str) -> NoReturn:
    """Stop the service's start with ``message``."""
    raise ImproperlyConfigured(message)


def _raw(name: str) -> str:
    return os.environ.get(name, "").strip()


def env_bool(name: str, default: bool) -> bool:
    """A switch: true/false, 1/0, yes/no or on/off, in any case."""
    value = _raw(name)
    if not value:
        return default
    if value.lower() in _ON | _OFF:
        return value.lower() in _ON
    refuse(f"{name} must be true or false (or 1/0, yes/no, on/off), not {value!r}")


def env_int(name: str, default: int, least: int = 0) -> int:
    """A whole number, ``least`` or more (a count, a number of seconds)."""
    value = _raw(name)
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        refuse(f"{name} must be a whole number, not {value!r}")
    if number < least:
        refuse(f"{name} must be {least} or more, not {number}")
    return number


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated list (``a.example, b.example``: the spaces are not part of a name)."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


_RATE = re.compile(r"([0-9]+)/([smhd])[a-z]*")


def env_rate(name: str, default: str) -> str:
    """A throttle rate as DRF reads it (``10/min``: tries, then the period by its first letter),
    checked now: DRF itself reads it only at the first request throttled, where a bad one is a
    500 for every such request."""
    value = _raw(name) or default
    match = _RATE.fullmatch(value)
    if match is None or int(match[1]) < 1:
        refuse(f"{name} must be a number of tries (1 or more) a second, minute, hour or day, "
               f"like 10/min, not {value!r}")
    return value


_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def env_log_level(name: str, default: str) -> str:
    """A logging level by its name, in any case."""
    value = _raw(name).upper() or default
    if value not in _LEVELS:
        refuse(f"{name} must be one of {', '.join(_LEVELS)}, not {_raw(name)!r}")
    return value


def env_dir(name: str, default: Path, *within: str) -> Path:
    """A directory the service writes in, made now with its subdirectories ``within``: one that
    cannot be made stops the start naming it, not a traceback from the settings."""
    path = Path(_raw(name) or default)
    for made in (path, *(path / sub for sub in within)):
        try:
            made.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            refuse(f"{name}: cannot make {made}: {exc.strerror}")
    return path
