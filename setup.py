"""Packaging for spacy-anno-eval (import name ``spacy_anno_eval``)."""

from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).parent


def token_reader() -> list:
    """The compiled token-column reader (``spacy_anno_eval.annotations._tokens``), or none.

    It reads spaCy's token structs, so it is compiled against the spaCy of the
    build environment (pyproject.toml) and records that version; at run time it
    is used only under the same spaCy. Without Cython, spaCy or a compiler the
    package installs without it and reads tokens with ``Doc.to_array``.
    """
    try:
        import numpy
        import spacy
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError:
        return []
    version = spacy.about.__version__
    extension = Extension("spacy_anno_eval.annotations._tokens", ["spacy_anno_eval/annotations/_tokens.pyx"],
                          include_dirs=[numpy.get_include()],
                          define_macros=[("ANNO_EVAL_SPACY_VERSION", f'"{version}"')], language="c++", optional=True)
    return cythonize([extension], quiet=True, compiler_directives={"language_level": "3"})

setup(
    name="spacy-anno-eval",
    version="0.1.0",
    description="Annotation evaluation and agreement inside spaCy: GATE / MUC / SemEval span measures, IAA, benchmarks",
    long_description=(HERE / "README.md").read_text(encoding="utf8") if (HERE / "README.md").exists() else "",
    long_description_content_type="text/markdown",
    license="MIT",
    python_requires=">=3.11",
    packages=find_packages(exclude=["tests", "tests.*", "benchmarks"]),
    ext_modules=token_reader(),
    install_requires=[
        "spacy>=3.7,<4",
        "numpy>=1.24",
        "scipy>=1.10",
        "edlib>=1.3",
        "typer>=0.9",
        "rich>=13",
        "tqdm>=4.38",  # progress bars (spaCy needs it too)
    ],
    extras_require={
        "test": [
            "pytest>=7",
            "hypothesis>=6",
            "nervaluate==1.2.1",
            "seqeval>=1.2",
            "scikit-learn>=1.3",
            "krippendorff>=0.6",
            "statsmodels>=0.14",
            "nltk>=3.8",
            "rdflib>=6",
            "pygamma-agreement==0.5.9",
            "teklia-nerval==0.3.3",
            "dask[distributed]>=2024.1",
            "gatenlp>=1.0.8",  # peers of the annotation-tool readers: same file, same annotations
            "dkpro-cassis>=0.9",
            "bioc>=2.1",
            "PYEVALB==0.1.3",  # peer of EVALB scoring (tests/trees/test_evalb_pyevalb.py, bench_trees.py)
            "ruff>=0.5",
            "import-linter>=2.1",  # the layer contract in .importlinter, checked by .ci/run
        ],
        "owl": ["rdflib>=6"],
        "nif": ["rdflib>=6"],
        "dask": ["dask[distributed]>=2024.1"],
        "bench": ["PYEVALB==0.1.3"],  # peer of benchmarks/bench_trees.py (LGPL, pure Python)
    },
    entry_points={
        "console_scripts": ["anno-eval = spacy_anno_eval.cli.app:main"],
        "spacy_factories": [
            "anno_eval = spacy_anno_eval.pipeline.component:make_anno_eval",
        ],
        "spacy_scorers": [
            "spacy_anno_eval.spans_scorer.v1 = spacy_anno_eval.pipeline.scorers:make_spans_scorer",
            "spacy_anno_eval.cats_agreement_scorer.v1 = spacy_anno_eval.pipeline.cats_scorer:make_cats_agreement_scorer",  # noqa: E501
            "spacy_anno_eval.noisy_spans_scorer.v1 = spacy_anno_eval.pipeline.noisy_scorer:make_noisy_spans_scorer",
            "spacy_anno_eval.coref_scorer.v1 = spacy_anno_eval.pipeline.coref_scorer:make_coref_scorer",
            "spacy_anno_eval.llm_scorer.v1 = spacy_anno_eval.pipeline.llm_scorer:make_llm_scorer",
        ],
    },
    classifiers=[
        "Programming Language :: Python :: 3.11",
        "Framework :: spaCy",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
    ],
)
