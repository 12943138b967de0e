"""The command line's ``app`` command: start the dashboard on this machine.

``riskcore app [STREAMLIT OPTIONS]`` runs ``streamlit run app.py`` from the
project's folder, so that the hardened settings of ``.streamlit/config.toml``
apply (localhost only, no telemetry, no file watcher); options such as
``--server.port 8600`` are passed on to Streamlit. The dashboard's code
(``app.py``, ``pages/``, ``ui/``) lives beside the package in a source
checkout, which ``pip install -e .`` keeps; an installed wheel holds
``riskcore`` alone and the command says so.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "app_path", "run_app"]


def app_path() -> Path:
    """Return the dashboard's ``app.py`` beside the package (it may not exist).

    Returns
    -------
    pathlib.Path
        The repository's ``app.py`` in a source checkout, two folders above this module.
    """
    return Path(__file__).resolve().parents[2] / "app.py"


def add_parser(sub: Any) -> None:
    """Add the ``app`` sub-command to the parser's sub-parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-parsers of the ``riskcore`` parser (``add_subparsers``).
    """
    sub.add_parser(
        "app",
        help="start the dashboard (http://localhost:8501) on the built-in demo data",
        description=(
            "Start the dashboard with the project's hardened Streamlit settings; "
            "further options (e.g. --server.port 8600) are passed to Streamlit."
        ),
    )


def run_app(options: Sequence[str]) -> int:
    """Replace this process with ``streamlit run app.py``; return 2 when it cannot start.

    Parameters
    ----------
    options : sequence of str
        Everything after ``app`` on the command line, passed to Streamlit.

    Returns
    -------
    int
        2 when the dashboard's code or Streamlit is missing (message on stderr);
        otherwise the process becomes Streamlit and never returns.
    """
    app = app_path()
    if not app.is_file():
        print(
            "error: the dashboard's app.py is not beside the installed package; install "
            "from a source checkout (pip install -e .) to run `riskcore app`",
            file=sys.stderr,
        )
        return 2
    import importlib.util

    if importlib.util.find_spec("streamlit") is None:
        print(
            "error: the dashboard needs Streamlit: pip install -r requirements.txt "
            "(or the extra riskcore[app])",
            file=sys.stderr,
        )
        return 2
    command = [sys.executable, "-m", "streamlit", "run", str(app), *options]
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(app.parent)  # .streamlit/config.toml is read from the working folder
    os.execv(sys.executable, command)  # noqa: S606 - our own interpreter, fixed arguments
    return 0  # pragma: no cover - execv does not return
