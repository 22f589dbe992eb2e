"""The ``anno_eval`` pipeline component: corpus quality assurance inside a spaCy pipeline.

The analogue of GATE's Quality Assurance PR (user guide 10.3.7): added to a
pipeline, it compares a *key* and a *response* annotation set of every Doc
and runs the corpus-level QA stage once, when the corpus ends. Registered
through the ``spacy_factories`` entry point, so no import is needed::

    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(...)
    qa = nlp.add_pipe("anno_eval", config={"key": "spans:gold", "response": "ents",
                                           "output_dir": "qa"})
    for doc in nlp.pipe(texts_or_docs):   # the QA stage runs when this loop ends
        ...
    qa.last_report["micro"]["strict"]["f"]

Config
------
``key``, ``response``: selectors of the two annotation sets (``ents`` for
``doc.ents``, ``spans:NAME`` for ``doc.spans[NAME]``). ``types``: only these
labels (all when null). ``features``: significant span attributes (``kb_id``,
``id``, ``_.name``), compared as GATE does. ``beta``: F-beta weight (>= 0).
``measures``: which of strict, lenient and average the written reports show.
``output_dir``: where the QA stage writes its reports (nothing is written when
null); ``report_formats``: which reports (``json``, ``md``, ``html``).
``pairing``, ``min_overlap``, ``zero_division``: as in
:func:`spacy_anno_eval.spans.engine.evaluate`. ``bdm``: BDM scores or a
taxonomy (as ``anno-eval score --bdm``): the QA stage's report then holds the
BDM-weighted figures (``"bdm"``), those of ``score --bdm``; ``bdm_feature``:
the span attribute holding the concept (default: the label), one of
``features``. ``scorer``: see *Scoring*
below. Bad values raise :class:`~spacy_anno_eval.errors.ConfigError` (a
``ValueError``) naming the setting when the component is made.

Per document
------------
Each Doc gets its result on ``doc._.anno_eval``, a dict keyed by component
name (so that several QA components can share a pipeline):
``doc._.anno_eval["anno_eval"]`` is the compact result of
:func:`spacy_anno_eval.spans.counts.doc_results` (labels, counts per label, the key
and response spans and the pairs with their status). It holds plain ints,
strings, lists and dicts only, so it travels with the Doc through
``Doc.to_bytes`` / ``DocBin`` (``store_user_data=True``) and back from the
worker processes of ``nlp.pipe(n_process>1)``.

Corpus end
----------
The QA stage puts the per-document results together
(:meth:`spacy_anno_eval.spans.counts.Evaluation.from_doc_results`, equal to
:func:`spacy_anno_eval.spans.engine.evaluate` on the same Docs), stores the
evaluation and its report on the component (``last_evaluation``,
``last_report``), and, when ``output_dir`` is set, writes the reports there
(:func:`spacy_anno_eval.report.write_reports`; the paths go to
``last_paths``). It runs:

- **after ``nlp.pipe(...)`` is exhausted**, once per call, in the parent
  process. With ``n_process > 1`` spaCy's ``Language.pipe`` runs the
  components in worker processes only, so the factory hooks the ``nlp``
  object itself: it sets an instance attribute ``nlp.pipe`` (a
  :class:`PipeHook`) that delegates to ``Language.pipe`` and, as the Docs are
  yielded, collects their results (document ids by
  :func:`spacy_anno_eval.annotations.docs.doc_id`: ``doc.user_data["doc_id"]``
  or ``["id"]``, else the position in the stream). A generator abandoned
  before its end runs nothing and writes nothing. The component's own
  ``pipe()`` (which runs in the workers) never collects, so nothing is
  counted twice. ``nlp.pipe(..., as_tuples=True)`` collects through the inner
  call. ``nlp.evaluate`` uses ``nlp.pipe`` but stops reading before the end,
  so evaluations (and every dev evaluation of ``spacy train``) run no QA
  stage: they report through :meth:`AnnoEval.score`.
- **on :meth:`AnnoEval.finalize`**, over the Docs processed one by one with
  ``nlp(doc)`` since the last ``finalize()`` (``__call__`` collects them;
  collected results, with the texts, stay in memory until ``finalize()`` or
  :meth:`AnnoEval.reset`, so a long-running service that calls ``nlp(text)``
  should call one of them from time to time);
- **on :meth:`AnnoEval.report`** over the given Docs' stored results.

A component moved to another pipeline with ``add_pipe(source=...)`` stays
hooked to the ``nlp`` that made it; use ``report(docs)`` there.

Scoring
-------
:meth:`AnnoEval.score` makes the component a scorer for ``nlp.evaluate``,
``spacy evaluate`` and the dev evaluations of ``spacy train``. It IS the
registered spans scorer: the factory names it in its default config, as
spaCy's own factories do::

    [components.anno_eval.scorer]
    @scorers = "spacy_anno_eval.spans_scorer.v1"
    spans_key = null
    prefix = null

and ``score(examples)`` returns ``scorer(examples)``, so the same Examples
give the same figures through either door (spaCy's rules for partially
annotated references and differing tokenizations included, see
:func:`spacy_anno_eval.annotations.docs.example_sets`). Keys are the
scorer's (:mod:`spacy_anno_eval.pipeline.scorers`): ``ents_p/r/f``
(strict, equal to spaCy's ``get_ner_prf``), ``ents_{p,r,f}_{strict,lenient,average}``,
``ents_per_type``, ``ents_muc``, ``ents_semeval`` (``spans_<key>_...`` with
``spans_key``, or the scorer's ``prefix``); every flat value is a float,
never ``None``. What is scored, and how, is the scorer's config (its
``spans_key``, ``labels``, ``beta``, ``features``), not the QA settings above.

This module imports only spaCy at load time; the engine (numpy, scipy) is
imported when a Doc is first processed.
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from spacy.language import Language
from spacy.pipeline.pipe import Pipe
from spacy.tokens import Doc
from spacy.util import SimpleFrozenList, minibatch

EXTENSION = "anno_eval"
MEASURES = ("strict", "lenient", "average")
REPORT_FORMATS = ("json", "md", "html")

DEFAULT_CONFIG: dict[str, Any] = {
    "key": "spans:gold",
    "response": "ents",
    "types": None,
    "features": None,
    "beta": 1.0,
    "measures": list(MEASURES),
    "output_dir": None,
    "report_formats": list(REPORT_FORMATS),
    "pairing": "optimal",
    "min_overlap": 0.0,
    "zero_division": 0.0,
    "bdm": None,
    "bdm_feature": None,
    "scorer": {"@scorers": "spacy_anno_eval.spans_scorer.v1"},
}


def _ensure_extension() -> None:
    if not Doc.has_extension(EXTENSION):
        Doc.set_extension(EXTENSION, default=None)


_ensure_extension()


@Language.factory(
    "anno_eval",
    default_config=DEFAULT_CONFIG,
    assigns=[f"doc._.{EXTENSION}"],
    # not ents_f: a later component's weights replace an earlier one's, and ner weighs ents_f
    default_score_weights={"ents_f_lenient": 0.0, "ents_f_average": 0.0},
)
def make_anno_eval(
    nlp: Language,
    name: str,
    key: str,
    response: str,
    types: list[str] | None,
    features: list[str] | None,
    beta: float,
    measures: list[str],
    output_dir: str | None,
    report_formats: list[str],
    pairing: str,
    min_overlap: float,
    zero_division: float,
    bdm: str | None,
    bdm_feature: str | None,
    scorer: Callable[..., dict[str, Any]] | None,
) -> "AnnoEval":
    """Make the ``anno_eval`` component and hook ``nlp.pipe`` for the corpus-end QA stage."""
    component = AnnoEval(
        name, key=key, response=response, types=types, features=features, beta=beta, measures=measures,
        output_dir=output_dir, report_formats=report_formats, pairing=pairing, min_overlap=min_overlap,
        zero_division=zero_division, bdm=bdm, bdm_feature=bdm_feature, scorer=scorer,
    )
    install_pipe_hook(nlp)
    return component


class _Collected:
    """Per-document results of one stream, in stream order."""

    def __init__(self) -> None:
        self.results: list[dict[str, Any]] = []
        self.doc_ids: list[str] = []
        self.texts: list[str] = []

    def add(self, doc: Doc, result: dict[str, Any] | None, position: int) -> None:
        if result is None:  # a doc our component never saw (e.g. dropped by an error handler)
            return
        self.results.append(result)
        self.doc_ids.append(doc_id(doc, position))
        self.texts.append(doc.text)

    def __len__(self) -> int:
        return len(self.results)


def doc_id(doc: Doc, position: int) -> str:
    """The document id by the one rule (:func:`spacy_anno_eval.annotations.docs.doc_id`)."""
    from ..annotations.docs import doc_id as rule

    return rule(doc, position)


def _check_selector(setting: str, value: Any) -> str:
    from ..annotations.table import parse_selector
    from ..errors import ConfigError

    if not isinstance(value, str):
        raise ConfigError(f"anno_eval: {setting} must be a selector string ('ents' or 'spans:<key>'), "
                          f"got {value!r}")
    try:
        parse_selector(value)
    except ValueError as e:
        raise ConfigError(f"anno_eval: {setting}: {e}") from None
    return value


def _check_names(setting: str, value: Any, allowed: Sequence[str] | None = None,
                 empty_ok: bool = True) -> list[str] | None:
    from ..errors import ConfigError

    if value is None:
        return None
    if isinstance(value, str) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"anno_eval: {setting} must be a list of non-empty strings, got {value!r}")
    value = list(value)
    if not value and not empty_ok:
        raise ConfigError(f"anno_eval: {setting} must not be empty; choose from {', '.join(allowed or ())}")
    if allowed is not None:
        bad = [v for v in value if v not in allowed]
        if bad:
            raise ConfigError(f"anno_eval: {setting} has {', '.join(map(repr, bad))}; "
                              f"choose from {', '.join(allowed)}")
    return value or None


def _check_bdm(bdm: Any, feature: Any, features: Sequence[str] | None) -> tuple[str | None, str | None]:
    from ..errors import ConfigError

    if bdm is not None and (not isinstance(bdm, str) or not bdm):
        raise ConfigError(f"anno_eval: bdm must be the path of BDM scores or a taxonomy, got {bdm!r}")
    if feature is not None and (not isinstance(feature, str) or not feature):
        raise ConfigError(f"anno_eval: bdm_feature must be a feature name (kb_id, id, _.NAME), got {feature!r}")
    if feature is not None and bdm is None:
        raise ConfigError("anno_eval: bdm_feature names the feature holding the BDM concept; set bdm too")
    if feature is not None and feature not in (features or ()):
        raise ConfigError(f"anno_eval: bdm_feature {feature!r} must also be one of features (a concept that "
                          f"differs makes the pair a near miss, as in 'anno-eval score --features "
                          f"{feature} --bdm-feature {feature}'); features: {list(features or [])}")
    if bdm is not None:
        import os

        if not os.path.isfile(bdm):
            raise ConfigError(f"anno_eval: bdm: no such file {bdm!r}; give BDM scores ('anno-eval bdm' or "
                              "GATE's) or a taxonomy (child<TAB>parent, OWL)")
    return bdm, feature


class AnnoEval(Pipe):
    """Compare a key and a response annotation set per Doc; QA over the corpus at its end.

    See the module docstring for the settings, where results go and when the
    corpus stage runs.
    """

    def __init__(self, name: str = "anno_eval", *, key: str = "spans:gold", response: str = "ents",
                 types: Sequence[str] | None = None, features: Sequence[str] | None = None,
                 beta: float = 1.0, measures: Sequence[str] = MEASURES, output_dir: str | None = None,
                 report_formats: Sequence[str] = REPORT_FORMATS, pairing: str = "optimal",
                 min_overlap: float = 0.0, zero_division: float = 0.0, bdm: str | None = None,
                 bdm_feature: str | None = None, scorer: Callable[..., dict[str, Any]] | None = None) -> None:
        from ..errors import ConfigError
        from ..spans.settings import SpanSettings

        self.name = name
        self.key = _check_selector("key", key)
        self.response = _check_selector("response", response)
        self.types = _check_names("types", types)
        self.features = _check_names("features", features)
        try:  # the span engine's settings, validated once (the evaluations made here carry them)
            self._settings = SpanSettings(key_set=self.key, response_set=self.response, types=self.types,
                                          features=self.features, beta=beta, zero_division=zero_division,
                                          pairing=pairing, min_overlap=min_overlap)
        except ConfigError as e:
            raise ConfigError(f"anno_eval: {e}") from None
        self.beta = self._settings.beta
        if self.beta == float("inf"):
            raise ConfigError(f"anno_eval: beta must be a finite number >= 0 here, got {beta!r}: a spaCy config "
                              f"cannot hold inf (JSON has no infinity); recall is the report's r")
        self.measures = _check_names("measures", measures, MEASURES, empty_ok=False)
        from ..report import FORMATS

        self.report_formats = _check_names("report_formats", report_formats, tuple(FORMATS), empty_ok=False)
        self.pairing = self._settings.pairing
        self.min_overlap = self._settings.min_overlap
        self.zero_division = self._settings.zero_division
        self.output_dir = None if output_dir is None or str(output_dir) == "" else str(output_dir)
        self.bdm, self.bdm_feature = _check_bdm(bdm, bdm_feature, self.features)
        self._credit: Any = None
        if scorer is None:
            from .scorers import make_spans_scorer

            scorer = make_spans_scorer()
        if not callable(scorer):
            raise ConfigError(f"anno_eval: scorer must be a registered scorer (callable), got {scorer!r}")
        self.scorer = scorer
        self._pending = _Collected()
        self._key_seen = False
        self._warned_no_key = False
        self.last_evaluation: Any = None
        self.last_report: dict[str, Any] | None = None
        self.last_paths: dict[str, Any] = {}
        self.n_reports = 0
        _ensure_extension()

    # -- settings ---------------------------------------------------------

    @property
    def settings(self) -> Any:
        """The span engine's settings (:class:`~spacy_anno_eval.spans.settings.SpanSettings`), validated when the
        component was made; the :class:`~spacy_anno_eval.spans.counts.Evaluation` s made here carry them."""
        return self._settings

    def credit_rule(self) -> Any:
        """The BDM credit rule of ``bdm`` / ``bdm_feature`` (read once, when first needed), or None."""
        if self.bdm is None:
            return None
        if self._credit is None:
            from ..bdm.credit import BdmCredit

            self._credit = BdmCredit.from_file(self.bdm, feature=self.bdm_feature)
        return self._credit

    # -- per document -----------------------------------------------------

    def _align(self, key_docs: Sequence[Doc], response_docs: Sequence[Doc], key_set: str) -> Any:
        from ..annotations.docs import spans_from_docs
        from ..spans.align import align_spans, select_types

        key = select_types(spans_from_docs(key_docs, key_set, self.features), self.types)
        response = select_types(spans_from_docs(response_docs, self.response, self.features), self.types)
        return align_spans(key, response, features=self.features, pairing=self.pairing,
                           min_overlap=self.min_overlap)

    def _annotate(self, docs: list[Doc]) -> None:
        """Compare key and response of a batch of Docs and store each Doc's result."""
        from ..spans.counts import doc_results

        if not docs:
            return
        results = doc_results(self._align(docs, docs, self.key), len(docs),
                              keep_features=[self.bdm_feature] if self.bdm_feature else ())
        self._warn_if_no_key(results)
        for doc, result in zip(docs, results, strict=True):
            stored = dict(doc._.get(EXTENSION) or {})
            stored[self.name] = result
            doc._.set(EXTENSION, stored)

    def _warn_if_no_key(self, results: list[dict[str, Any]]) -> None:
        """Warn once while the key set is empty in every document seen: a pipeline run over plain texts has no
        gold on its Docs, and every response annotation would count as spurious."""
        if self._key_seen or not results:
            return
        if any(r["key"] for r in results):
            self._key_seen = True
            return
        if not self._warned_no_key:
            import warnings

            from ..errors import EmptyKeyWarning

            self._warned_no_key = True
            where_ = "doc.ents" if self.key == "ents" else f"doc.spans[{self.key.partition(':')[2]!r}]"
            warnings.warn(f"anno_eval: the key set {self.key!r} is empty in every document so far; the gold must "
                          f"be on the Docs ({where_}) for the QA to count anything but spurious annotations",
                          EmptyKeyWarning, stacklevel=3)

    def result(self, doc: Doc) -> dict[str, Any] | None:
        """This component's result on ``doc`` (``None`` when it has not processed the Doc)."""
        stored = doc._.get(EXTENSION)
        return stored.get(self.name) if isinstance(stored, dict) else None

    def __call__(self, doc: Doc) -> Doc:
        """Process one Doc (``nlp(doc)``) and collect its result for :meth:`finalize`."""
        self._annotate([doc])
        self._pending.add(doc, self.result(doc), len(self._pending))
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Process a stream in batches. Collects nothing: in ``nlp.pipe`` the
        parent process collects (see the module docstring)."""
        error_handler = self.get_error_handler()
        for batch in minibatch(stream, size=batch_size):
            batch = list(batch)
            try:
                self._annotate(batch)
            except Exception as e:  # noqa: BLE001 - spaCy's error-handler protocol
                error_handler(self.name, self, batch, e)
                continue
            yield from batch

    # -- corpus stage -----------------------------------------------------

    def finalize(self) -> dict[str, Any] | None:
        """Run the QA stage over the Docs processed by ``nlp(doc)`` since the
        last call, then start afresh. Returns the report (``None``, writing
        nothing, when no Doc was processed)."""
        pending, self._pending = self._pending, _Collected()
        return self._corpus_end(pending)

    def report(self, docs: Iterable[Doc]) -> dict[str, Any]:
        """Run the QA stage over ``docs``, from the results this component stored on them."""
        from ..errors import InputError

        collected = _Collected()
        for position, doc in enumerate(docs):
            result = self.result(doc)
            if result is None:
                raise InputError(f"anno_eval: document {doc_id(doc, position)!r} has no result from the "
                                 f"component {self.name!r} (doc._.{EXTENSION}); run the pipeline on it first")
            collected.add(doc, result, position)
        if not len(collected):
            raise InputError("anno_eval: report() needs at least one document")
        out = self._corpus_end(collected)
        assert out is not None
        return out

    def reset(self) -> None:
        """Forget the Docs collected by ``nlp(doc)`` since the last :meth:`finalize`."""
        self._pending = _Collected()

    def _corpus_end(self, collected: _Collected) -> dict[str, Any] | None:
        """The QA stage: one evaluation over the collected Docs, its report, the files."""
        if not len(collected):
            return None
        from ..spans.counts import Evaluation

        evaluation = Evaluation.from_doc_results(collected.results, collected.doc_ids, self.settings,
                                                 collected.texts, self.credit_rule())
        report = evaluation.report()
        paths: dict[str, Any] = {}
        if self.output_dir is not None:
            from ..report import write_reports

            paths = dict(write_reports(evaluation, self.output_dir, formats=tuple(self.report_formats),
                                       measures=tuple(self.measures), report=report))
        self.last_evaluation = evaluation
        self.last_report = report
        self.last_paths = paths
        self.n_reports += 1
        return report

    # -- spaCy scoring ----------------------------------------------------

    def score(self, examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        """Score ``eg.predicted`` against ``eg.reference``: the registered spans scorer's result.

        ``kwargs`` (spaCy's scorer settings) go to the scorer, whose own config wins.
        """
        return self.scorer(examples, **kwargs)

    # -- serialization: the config holds every setting --------------------

    def to_disk(self, path: Any, *, exclude: Iterable[str] = SimpleFrozenList()) -> None:
        """Nothing to save: every setting is in the pipeline's config."""

    def from_disk(self, path: Any, *, exclude: Iterable[str] = SimpleFrozenList()) -> "AnnoEval":
        return self

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        return b""

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()) -> "AnnoEval":
        return self


# ---------------------------------------------------------------------------
# the parent-side hook on nlp.pipe


class PipeHook:
    """``nlp.pipe`` for a pipeline with ``anno_eval`` components (an instance attribute).

    Delegates to the class's ``Language.pipe`` and, as the Docs are yielded in
    the calling process, collects the results of the enabled ``anno_eval``
    components; when the stream is exhausted, each runs its QA stage once.
    A plain object (not a closure), so the ``nlp`` object still pickles.
    """

    def __init__(self, nlp: Language, inner: Callable[..., Iterator[Any]] | None = None) -> None:
        self.nlp = nlp
        self.inner = inner  # an earlier instance-level nlp.pipe, if any; else Language.pipe

    def __call__(self, texts: Iterable[Any], *, as_tuples: bool = False, batch_size: int | None = None,
                 disable: Iterable[str] = SimpleFrozenList(),
                 component_cfg: dict[str, dict[str, Any]] | None = None, n_process: int = 1,
                 **kwargs: Any) -> Iterator[Any]:
        nlp = self.nlp
        base = self.inner if self.inner is not None else type(nlp).pipe.__get__(nlp)
        docs = base(texts, as_tuples=as_tuples, batch_size=batch_size, disable=disable,
                    component_cfg=component_cfg, n_process=n_process, **kwargs)
        if as_tuples:  # Language.pipe calls nlp.pipe again without tuples: that call collects
            return docs
        disabled = set(disable)
        components = [proc for name, proc in nlp.pipeline if isinstance(proc, AnnoEval) and name not in disabled]
        if not components:
            return docs
        return _collect(docs, components)


def _collect(docs: Iterator[Doc], components: list[AnnoEval]) -> Iterator[Doc]:
    collected = [_Collected() for _ in components]
    for position, doc in enumerate(docs):
        for component, into in zip(components, collected, strict=True):
            into.add(doc, component.result(doc), position)
        yield doc
    # reached only when the stream is exhausted: an abandoned generator runs no QA stage
    for component, into in zip(components, collected, strict=True):
        component._corpus_end(into)


def install_pipe_hook(nlp: Language) -> None:
    """Set ``nlp.pipe`` to a :class:`PipeHook` (once per ``nlp`` object)."""
    current = nlp.__dict__.get("pipe")
    if not isinstance(current, PipeHook):
        nlp.pipe = PipeHook(nlp, current)  # type: ignore[method-assign]


__all__: list[str] = ["AnnoEval", "PipeHook", "make_anno_eval", "install_pipe_hook", "DEFAULT_CONFIG"]
