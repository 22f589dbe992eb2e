# cython: language_level=3, boundscheck=False, wraparound=False
"""The token columns the entity readers need, read straight from each Doc's token array.

``Doc.to_array`` costs about 2.3 µs per call whatever the document holds, so
on short documents it is most of a scorer's time. This module reads ORTH,
IDX, LENGTH, ENT_IOB and ENT_TYPE of every token of a list of Docs in one
pass, into preallocated arrays. It reads spaCy's ``TokenC`` structs, whose layout belongs
to the spaCy release it was compiled against: :data:`SPACY_VERSION` names that
release, and :mod:`spacy_anno_eval.annotations.docs` uses this module only
when the running spaCy is the same one (else ``Doc.to_array``, same result).
"""

import numpy as np

from libc.stdint cimport int64_t, uint8_t, uint64_t
from spacy.tokens.doc cimport Doc

cdef extern from *:
    """
    #ifndef ANNO_EVAL_SPACY_VERSION
    #define ANNO_EVAL_SPACY_VERSION ""
    #endif
    """
    const char* ANNO_EVAL_SPACY_VERSION

#: the spaCy release whose TokenC layout this module was compiled against
SPACY_VERSION = ANNO_EVAL_SPACY_VERSION.decode("ascii")


def ent_columns(list docs):
    """``(orth, idx, length, ent_iob, ent_type, starts)`` of every token of ``docs``: arrays of one row per
    token (uint64, int64, int64, uint8, uint64), and the int64 first row of each document (one more entry than
    ``docs``), as ``Doc.to_array([ORTH, IDX, LENGTH, ENT_IOB, ENT_TYPE])`` of each document concatenated."""
    cdef Py_ssize_t n_docs = len(docs)
    starts = np.zeros(n_docs + 1, dtype=np.int64)
    cdef int64_t[::1] s = starts
    cdef Py_ssize_t d, i, k = 0
    cdef Doc doc
    for d in range(n_docs):
        doc = <Doc?>docs[d]
        k += doc.length
        s[d + 1] = k
    orth = np.empty(k, dtype=np.uint64)
    idx = np.empty(k, dtype=np.int64)
    length = np.empty(k, dtype=np.int64)
    iob = np.empty(k, dtype=np.uint8)
    etype = np.empty(k, dtype=np.uint64)
    cdef uint64_t[::1] o = orth
    cdef int64_t[::1] x = idx
    cdef int64_t[::1] n = length
    cdef uint8_t[::1] b = iob
    cdef uint64_t[::1] t = etype
    k = 0
    for d in range(n_docs):
        doc = <Doc>docs[d]
        for i in range(doc.length):
            o[k] = doc.c[i].lex.orth
            x[k] = doc.c[i].idx
            n[k] = doc.c[i].lex.length
            b[k] = <uint8_t>doc.c[i].ent_iob
            t[k] = doc.c[i].ent_type
            k += 1
    return orth, idx, length, iob, etype, starts
