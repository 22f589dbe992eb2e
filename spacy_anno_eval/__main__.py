"""``python -m spacy_anno_eval``: the ``anno-eval`` command line."""

from .cli.app import main

main()
