"""``python -m lupus``: the ``lupus`` command (for a shell without the script on its path)."""

from lupus.cli import app

if __name__ == "__main__":
    app(prog_name="lupus")
