"""The ``anno-eval`` command line: :mod:`.app` (the app, shared options, exit codes) and one module per command.

Importing the package registers every command on :data:`.app.app`, in the order ``--help`` lists them.
"""

from importlib import import_module

COMMANDS = ("score", "qa", "compare", "adjudicate", "agreement", "iaa", "bdm", "gamma", "align", "relations",
            "noisy", "trees", "coref", "benchmark", "sets", "convert")

for _command in COMMANDS:
    import_module(f"{__name__}.{_command}")
