"""The ``anno-eval`` command line: :mod:`.app` (the app, shared options, exit codes) and one module per command.

Importing the package registers every command on :data:`.app.app`, in the order ``--help`` lists them.
"""

from importlib import import_module

COMMANDS = ("score", "qa", "compare", "adjudicate", "agreement", "iaa", "bdm", "gamma", "align", "relations",
            "noisy", "trees", "coref", "coref-iaa", "benchmark", "sets", "convert")

for _command in COMMANDS:  # a command's module is its name with '_' for '-' (coref-iaa: cli/coref_iaa.py)
    import_module(f"{__name__}.{_command.replace('-', '_')}")
