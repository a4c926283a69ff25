"""eqsat's version, in a module of its own: ``eqsat --version`` and the API read it without
loading the optimizer."""

from __future__ import annotations

from pathlib import Path


def version() -> str:
    """eqsat's version: the installed distribution's, else the checkout's pyproject.toml."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("eqsat")
    except PackageNotFoundError:
        import tomllib

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        return str(tomllib.loads(pyproject.read_text())["project"]["version"])
