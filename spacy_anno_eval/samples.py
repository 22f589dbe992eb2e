"""Seeded random samples drawn in blocks: the same result in-process and on a Dask cluster of any size.

Every resampling method of the package (:func:`~spacy_anno_eval.agreement.reliability.with_bootstrap`,
:func:`~spacy_anno_eval.agreement.coefficients.table_bootstrap`,
:func:`~spacy_anno_eval.resampling.paired.paired_test`) draws its ``B``
samples through :func:`map_blocks`:

- the samples are cut into blocks of ``block_size`` samples (the last block
  holds the rest)::

      sizes = [block_size] * (B // block_size) + ([B % block_size] if B % block_size else [])

  where ``block_size`` is a function of the problem only (the data's shape,
  through :func:`block_size_for`), never of the scheduler or of the number of
  workers;
- block ``i`` draws from its own generator::

      numpy.random.default_rng(numpy.random.SeedSequence(seed, spawn_key=(i,)))

  the ``i``-th child of ``SeedSequence(seed)`` (what ``SeedSequence(seed).spawn(i + 1)[i]``
  gives): NumPy's scheme for independent parallel streams (NumPy manual,
  "Parallel random number generation"). The stream of block ``i`` depends on
  ``seed`` and ``i`` alone, not on how many blocks there are, which block ran
  first, or where.

So block ``i`` computes the same numbers on whichever process runs it, and the
blocks are put together in block order: the result depends on ``seed``, the
number of samples and the block size, not on the scheduler. Each block's
arithmetic is the same code on arrays of the same shapes either way. The one
thing that could still differ is how a multithreaded BLAS orders the sums of
a matrix product (workers run one BLAS thread); the callers make those sums
sums of integer-valued floats, exact in any order (bootstrap weights times
counts), except :func:`~spacy_anno_eval.resampling.paired.paired_test`
given non-integer "counts". The block size is part of the result, like the
seed: changing :data:`SAMPLES_PER_BLOCK` or :data:`CELLS_PER_BLOCK` changes
the samples. Samples ``0 .. B - 1`` are
the first ``B`` of any larger number of samples with the same seed and block
size (the last block draws a prefix of a full block's draws).

``seed=None`` draws fresh entropy once per call (then every block is still a
child of the one ``SeedSequence``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import ConfigError

#: at most this many samples per block: enough blocks to spread 1000 samples over a few workers
SAMPLES_PER_BLOCK = 250
#: at most about this many array cells (float64: 8 bytes) held per block
CELLS_PER_BLOCK = 4_000_000
#: array arguments at least this large (bytes) are sent to the workers once (``client.scatter``)
SCATTER_BYTES = 100_000
#: keyword names ``Client.map`` keeps for itself: a block function's keywords must avoid them
_MAP_KEYWORDS = frozenset({"key", "workers", "retries", "resources", "priority", "allow_other_workers",
                           "fifo_timeout", "actor", "actors", "pure", "batch_size"})


def block_size_for(cells_per_sample: int, *, max_cells: int = CELLS_PER_BLOCK,
                   max_samples: int = SAMPLES_PER_BLOCK) -> int:
    """Samples per block for a problem needing ``cells_per_sample`` array cells per sample.

    ``max(1, min(max_samples, max_cells // cells_per_sample))``: memory per
    block stays near ``max_cells`` cells whatever the number of samples.
    """
    return max(1, min(max_samples, max_cells // max(int(cells_per_sample), 1)))


def block_sizes(n_samples: int, block_size: int) -> list[int]:
    """The number of samples in each block: full blocks, then the rest."""
    if n_samples < 0 or block_size < 1:
        raise ConfigError(f"need n_samples >= 0 and block_size >= 1, got {n_samples} and {block_size}")
    full, rest = divmod(n_samples, block_size)
    return [block_size] * full + ([rest] if rest else [])


def root_sequence(seed: Any) -> np.random.SeedSequence:
    """``SeedSequence(seed)``: an int (or a sequence of ints, or a ``SeedSequence``); ``None`` fresh entropy."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    return np.random.SeedSequence(seed)


def block_seed(seed: Any, index: int) -> np.random.SeedSequence:
    """The ``SeedSequence`` of block ``index``: ``SeedSequence(seed, spawn_key=(index,))``."""
    root = root_sequence(seed)
    return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, int(index)),
                                  pool_size=root.pool_size)


def block_rng(seed: Any, index: int) -> np.random.Generator:
    """The generator block ``index`` draws from (see the module docstring)."""
    return np.random.default_rng(block_seed(seed, index))


def document_weights(rng: np.random.Generator, n_docs: int, size: int) -> np.ndarray:
    """``size`` bootstrap resamples of ``n_docs`` documents, as how often each document is drawn: a
    ``(size, n_docs)`` float array, each row a draw of ``n_docs`` documents with replacement (each row sums to
    ``n_docs``). Drawn as ``n_docs`` uniform indices per sample, counted (the multinomial distribution of
    ``rng.multinomial(n_docs, [1 / n_docs] * n_docs)``, about five times faster at 10,000 documents).

    >>> w = document_weights(np.random.default_rng(0), 4, 3)
    >>> w.shape, w.sum(axis=1).tolist()
    ((3, 4), [4.0, 4.0, 4.0])
    """
    if n_docs == 0:
        return np.zeros((size, 0))
    index = rng.integers(0, n_docs, size=(size, n_docs), dtype=np.int64)
    index += (np.arange(size, dtype=np.int64) * n_docs)[:, None]
    return np.bincount(index.ravel(), minlength=size * n_docs).reshape(size, n_docs).astype(float)


def map_blocks(fn: Callable[..., Any], n_samples: int, seed: Any, block_size: int, *, client: Any = None,
               **kwargs: Any) -> list[Any]:
    """``[fn(size_i, seed_i, **kwargs) for each block i]``, in block order, in-process or on ``client``.

    ``size_i`` is the number of samples of block ``i`` (:func:`block_sizes`),
    ``seed_i`` its ``numpy.random.SeedSequence`` (:func:`block_seed`); ``fn``
    draws with ``numpy.random.default_rng(seed_i)``. ``fn`` must be picklable
    (a module-level function) when ``client`` is given; ``client`` is an open
    ``distributed.Client``: the blocks run as ``client.map(..., pure=False)``,
    array keywords of at least :data:`SCATTER_BYTES` are scattered to every
    worker once (``client.scatter(..., broadcast=True)``), and the results
    come back in block order (``client.gather``). Either way the result is
    the same (see the module docstring).
    """
    sizes = block_sizes(n_samples, block_size)
    root = root_sequence(seed)
    seeds = [block_seed(root, i) for i in range(len(sizes))]
    if client is None:
        return [fn(size, block, **kwargs) for size, block in zip(sizes, seeds, strict=True)]
    clash = _MAP_KEYWORDS.intersection(kwargs)
    if clash:
        raise ConfigError(f"map_blocks: keyword(s) {sorted(clash)} are taken by Client.map; rename them in "
                         f"{getattr(fn, '__name__', fn)!r}")
    if not sizes:
        return []
    sent = {name: client.scatter(value, broadcast=True)
            if isinstance(value, np.ndarray) and value.nbytes >= SCATTER_BYTES else value
            for name, value in kwargs.items()}
    futures = client.map(fn, sizes, seeds, pure=False, **sent)
    return list(client.gather(futures))


__all__ = ["CELLS_PER_BLOCK", "SAMPLES_PER_BLOCK", "block_rng", "block_seed", "block_size_for", "block_sizes",
           "document_weights", "map_blocks", "root_sequence"]
