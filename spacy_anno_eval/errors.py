"""Every error and warning of the toolkit, in one place (after spaCy's ``errors.py``).

Errors: :class:`AnnoEvalError` is the root; :class:`InputError` is bad input
(a file, a document, a span, a name that matches nothing) and
:class:`ConfigError` a bad setting (an option, a config value, a parameter of
the Python API). Both are also :class:`ValueError`, so ``except ValueError``
keeps working. Every message says what was wrong, where (:func:`where`: file,
line, document, span) and what to do. The CLI turns an :class:`AnnoEvalError`
into one line on stderr and exit code 2; anything else is an internal error
(exit 3).

Warnings: one class per kind of thing a user should know, so that each can be
filtered on its own (``warnings.filterwarnings("ignore", category=...)``).
"""

from __future__ import annotations


class AnnoEvalError(Exception):
    """The root of every error the toolkit raises on purpose (exit code 2 in the CLI)."""


class InputError(AnnoEvalError, ValueError):
    """Bad input: a file, a document, a span or a name that cannot be evaluated."""


class ConfigError(AnnoEvalError, ValueError):
    """A bad setting: an option, a config file value or a Python API parameter."""


class FeatureTypeWarning(UserWarning):
    """A feature value mismatch that vanishes under string comparison ("5" vs 5).

    Feature values compare by type and value, as GATE's AnnotationDiffer does
    (Java ``equals``; GATE user guide 10.2.3), so such pairs do not match.
    """


class UndefinedFigureWarning(RuntimeWarning):
    """A ratio with a zero denominator got ``zero_division``, or a coefficient that does not exist is None."""


class ConlluWarning(UserWarning):
    """A CoNLL-U sentence that is readable but not a well-formed UD tree (several roots, a repeated sent_id)."""


class UnknownConceptWarning(UserWarning):
    """An annotation's concept is not in the taxonomy: its near misses earn no credit."""


class DegenerateAgreementWarning(UndefinedFigureWarning):
    """An agreement coefficient does not exist (empty table, one category, Ae = 1, nothing pairable).

    A subclass of :class:`UndefinedFigureWarning`, so one filter on that class
    silences every undefined figure, and a filter on this one only the
    agreement family's.
    """


class AdjudicationWarning(UserWarning):
    """Something in the adjudicated gold set the user should know (e.g. documents without ``doc.ents``)."""


class EmptyKeyWarning(UserWarning):
    """The ``anno_eval`` component's key set is empty in every document so far: the gold must be on the Docs
    (for example ``doc.spans["gold"]``) for anything but spurious annotations to be counted."""


class DiscontinuousSpanWarning(UserWarning):
    """A discontinuous brat span was read as one span from its first start to its last end."""


class MissingFeatureWarning(UserWarning):
    """Pairwise F with ``Type->feature`` left out annotations of that type without the feature (GATE's IAA
    plugin); the message counts them per set."""


class CoveredTextWarning(UserWarning):
    """A file's offsets disagree with its own record of the covered text (NIF ``anchorOf``, Label Studio
    ``value.text``, BioC ``<text>``, ...): one warning per file, with the count and the first example; the
    offsets are kept."""


class ZeroLengthWarning(UserWarning):
    """Annotations with no extent (start == end, GATE's and UIMA's point annotations) were left out: a span
    compares by its characters, and these have none."""


class CoverageWarning(UserWarning):
    """Annotators compared on part of the corpus only: some documents hold no annotation record of one of them
    (never annotated, skipped or cancelled), so each pair covers the documents both annotated."""


class TokenMismatchWarning(UserWarning):
    """A response's tokens were paired with the key's by position although some are spelt differently.

    As conlleval does: a CoNLL response with the key's sentences and token counts but some tokens
    re-spelt (WNUT-17's MIC-CIS writes "get" for "gt") is scored on the key's text. Warned once per
    comparison, naming how many tokens differ and the first one.
    """


class NonFiniteNumberWarning(UserWarning):
    """Numbers that are not finite (``NaN``, ``Infinity``, a literal such as ``1e999``) were read as null: JSON has
    no such numbers, so every reader reads them as a missing value (:mod:`spacy_anno_eval.io.parse`); one warning
    per file, with the count."""


class UnitIdColumnWarning(UserWarning):
    """A column of a ratings table was read as the units' ids (or their groups), not as an annotator: its header
    names units (``Units``, ``Item``, ``Group``, ...) or its values differ on every row
    (:func:`~spacy_anno_eval.agreement.summary.read_table`; ``--id-column none`` reads it as an annotator)."""


class SameInputWarning(UserWarning):
    """The key and the response of a comparison are the same file (the same path, or one reached through a symlink
    or a hard link) and the same annotation set: every figure will be perfect. Warned by the commands that compare
    two inputs (``cli.app.warn_same_input``)."""


class WorkerDiedError(RuntimeError):
    """A shard's task was given up by Dask: every worker that ran it died (an internal error, exit code 3, not an
    :class:`AnnoEvalError`: the input is not at fault). Raised by :mod:`spacy_anno_eval.workflows.stream`."""


class ConversionWarning(UserWarning):
    """A conversion changed or could not keep something: spans grown to whole tokens, a feature value written
    as text, feature values that share one extension key, documents a JSONL cannot mark as not covered
    (:mod:`spacy_anno_eval.io.convert`)."""


class ReaderNoteWarning(UserWarning):
    """What an annotation tool's reader noticed about a file and read in its own way, as one sentence per kind:
    duplicates dropped, relations or answers left out, annotations without a label infon, document features not
    read as categories... (:meth:`spacy_anno_eval.io.multiset.MultiSetBuilder.note`, warned once per file when
    the corpus is built)."""


class CorefWarning(UserWarning):
    """What a coreference reader or scorer changed in what it was given: a mention written twice kept once
    (:mod:`spacy_anno_eval.coref`)."""


def where(source: str | None = None, doc: str | int | None = None, line: int | None = None,
          span: tuple[int, int] | None = None) -> str:
    """Format a location prefix such as ``key.jsonl, line 4, document 'd3', span [5, 9)``."""
    parts = []
    if source:
        parts.append(str(source))
    if line is not None:
        parts.append(f"line {line}")
    if doc is not None:
        parts.append(f"document {doc!r}")
    if span is not None:
        parts.append(f"span [{span[0]}, {span[1]})")
    return ", ".join(parts)
