/* The outcome tracer of cardrules.oracle.trace.coverage, compiled: the same records as the pure-Python
 * tracer there, at a fraction of its cost per event.
 *
 * The pure-Python tracer in coverage.py is the reference: tests/oracle/trace run both on the same model
 * calls and require equal results, and the conformance suites made with either are the same, byte for
 * byte. This file only moves the per-event work into C:
 *
 * - Python's own sys.settrace and sys.setprofile call a Python function per event, and copy the frame's
 *   local variables into a dictionary and back around each call (Python 3.11). A C trace function
 *   (PyEval_SetTrace) does neither.
 * - What is decided once per code object (the model's, a remembered one, another) is asked of a Python
 *   callback (``decide``) and kept here. The kind of a returned None, bool or int is worked out here; of
 *   another pictured value (a tuple, list or set, or a subclass of int) it is asked of ``value_kind`` (the
 *   coverage module's _value_kind). A watched call (a rule configuration's method) is handed to
 *   ``on_watched`` with its frame. A feature's name is asked of ``namer`` the first time it is met, and
 *   kept.
 *
 * Tracer.outcomes(run, watched, watch_only, mapping) runs run() traced and returns its result, the clause
 * IDs of the code objects called (looked up in ``mapping``) and the outcome features: every line-to-line
 * arc taken in a frame of a model code object, the arc out of it, and the kind of each pictured value it
 * returned. Remembered functions, what they call, and watched methods are left out. Tracer.calls(run,
 * mapping) gives the clause IDs of every code object called (sys.setprofile's "call" events), for
 * coverage.clauses_exercised.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>
#include <stdint.h>
#include <string.h>

enum { KIND_OTHER = 0, KIND_MODEL = 1, KIND_REMEMBERED = 2 };
enum { FRAME_IGNORED, FRAME_OTHER, FRAME_MODEL, FRAME_REMEMBERED, FRAME_WATCHED };

#define LINE_BITS 21
#define LINE_LIMIT ((1u << LINE_BITS) - 1) /* lines are below it; as an arc's end it means "leaves" */
#define INDEX_LIMIT ((1u << LINE_BITS) - 2)
#define ARC_MASK ((1ULL << (2 * LINE_BITS)) - 1)
#define CODES_KEPT 100000 /* code made at run time (exec, compile) must not grow the tables without end */
#ifndef CTRACER_SOURCE_DIGEST
#define CTRACER_SOURCE_DIGEST "" /* built without setup.py: not compared with the source */
#endif

/* what was decided about a code object, and its place in the current run */
typedef struct {
    PyObject *code;   /* a strong reference (its address stays its own); NULL: an empty slot */
    int kind;         /* KIND_*, or -1: not decided yet */
    uint32_t stamp;   /* the run in which index was given */
    int index;        /* its place in the run's list of called codes */
} CodeSlot;

/* one run's arcs: a set of packed (index + 1, a, b), emptied by starting a new generation */
typedef struct {
    uint64_t key;
    uint32_t generation;
} ArcSlot;

/* feature names, kept across runs: (code, arc) or (code, line, kind) -> the feature's string */
typedef struct {
    PyObject *code;   /* borrowed: the code table holds it as long as this is kept; NULL: an empty slot */
    uint64_t arc;     /* a << LINE_BITS | b for an arc; the line for a returned kind */
    PyObject *kind;   /* NULL for an arc, else the kind (a strong reference) */
    PyObject *name;   /* a strong reference */
} NameSlot;

typedef struct {
    int index;
    int line;
    PyObject *kind;   /* a strong reference */
} KindRecord;

typedef struct {
    PyFrameObject *frame; /* compared by address only: a frame on this stack is running */
    int mode;             /* FRAME_* */
    int index;
    int last;             /* the frame's last line (FRAME_MODEL) */
} Entry;

typedef struct {
    PyObject_HEAD
    PyObject *decide;
    PyObject *value_kind;
    PyObject *on_watched;
    PyObject *namer;
    CodeSlot *codes;
    Py_ssize_t codes_capacity; /* a power of two, as every table's */
    Py_ssize_t codes_used;
    NameSlot *names;
    Py_ssize_t names_capacity;
    Py_ssize_t names_used;
    ArcSlot *arcs;
    Py_ssize_t arcs_capacity;
    uint32_t generation;
    uint64_t *run_arcs;        /* this run's arcs, each once, in order of first taking */
    Py_ssize_t run_arcs_used;
    Py_ssize_t run_arcs_capacity;
    KindRecord *run_kinds;     /* this run's returned kinds, repeats included */
    Py_ssize_t run_kinds_used;
    Py_ssize_t run_kinds_capacity;
    Entry *stack;
    Py_ssize_t stack_capacity;
    Py_ssize_t depth;
    uint32_t stamp;
    int active;
    int watch_only;
    int inside_remembered;
    int inside_watched;
    PyObject *watched;         /* a tuple of code objects, during a run */
    PyObject *seen;            /* a list of the code objects called, during a run */
} Tracer;

static PyObject *KIND_NONE, *KIND_TRUE, *KIND_FALSE, *KIND_NEG, *KIND_ZERO, *KIND_POS;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int grow(void **array, Py_ssize_t *capacity, Py_ssize_t used, size_t size) {
    if (used < *capacity) return 0;
    Py_ssize_t larger = *capacity ? *capacity * 2 : 256;
    void *bigger = PyMem_Realloc(*array, (size_t)larger * size);
    if (bigger == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *array = bigger;
    *capacity = larger;
    return 0;
}

/* ---- the code table ---- */

static void forget_names(Tracer *t) {
    for (Py_ssize_t i = 0; i < t->names_capacity; i++) {
        NameSlot *n = &t->names[i];
        if (n->code == NULL) continue;
        n->code = NULL;
        Py_CLEAR(n->kind);
        Py_CLEAR(n->name);
    }
    t->names_used = 0;
}

static void forget_codes(Tracer *t) {
    forget_names(t);
    for (Py_ssize_t i = 0; i < t->codes_capacity; i++) Py_CLEAR(t->codes[i].code);
    t->codes_used = 0;
}

static int grow_codes(Tracer *t) {
    Py_ssize_t capacity = t->codes_capacity ? t->codes_capacity * 2 : 1024;
    CodeSlot *slots = PyMem_Calloc((size_t)capacity, sizeof(CodeSlot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < t->codes_capacity; i++) {
        CodeSlot *old = &t->codes[i];
        if (old->code == NULL) continue;
        Py_ssize_t j = (Py_ssize_t)(mix((uint64_t)(uintptr_t)old->code) & (uint64_t)(capacity - 1));
        while (slots[j].code != NULL) j = (j + 1) & (capacity - 1);
        slots[j] = *old;
    }
    PyMem_Free(t->codes);
    t->codes = slots;
    t->codes_capacity = capacity;
    return 0;
}

/* The slot of ``code``, made (undecided) if it has none. */
static CodeSlot *code_slot(Tracer *t, PyObject *code) {
    if (2 * (t->codes_used + 1) > t->codes_capacity && grow_codes(t) < 0) return NULL;
    Py_ssize_t mask = t->codes_capacity - 1;
    Py_ssize_t j = (Py_ssize_t)(mix((uint64_t)(uintptr_t)code) & (uint64_t)mask);
    while (t->codes[j].code != NULL) {
        if (t->codes[j].code == code) return &t->codes[j];
        j = (j + 1) & mask;
    }
    Py_INCREF(code);
    t->codes[j].code = code;
    t->codes[j].kind = -1;
    t->codes[j].stamp = 0;
    t->codes[j].index = -1;
    t->codes_used++;
    return &t->codes[j];
}

/* ---- one run's arcs ---- */

static int grow_arcs(Tracer *t) {
    Py_ssize_t capacity = t->arcs_capacity ? t->arcs_capacity * 2 : 1024;
    ArcSlot *slots = PyMem_Calloc((size_t)capacity, sizeof(ArcSlot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < t->run_arcs_used; i++) {
        uint64_t key = t->run_arcs[i];
        Py_ssize_t j = (Py_ssize_t)(mix(key) & (uint64_t)(capacity - 1));
        while (slots[j].generation == t->generation) j = (j + 1) & (capacity - 1);
        slots[j].key = key;
        slots[j].generation = t->generation;
    }
    PyMem_Free(t->arcs);
    t->arcs = slots;
    t->arcs_capacity = capacity;
    return 0;
}

static int add_arc(Tracer *t, int index, int a, int b) {
    if (a < 0 || (unsigned)a >= LINE_LIMIT || b < -1 || b >= (int)LINE_LIMIT) {
        PyErr_Format(PyExc_ValueError, "the compiled tracer keeps lines 0 to %u: met the arc %d -> %d",
                     LINE_LIMIT - 1, a, b);
        return -1;
    }
    uint64_t key = ((uint64_t)(index + 1) << (2 * LINE_BITS)) | ((uint64_t)a << LINE_BITS)
                   | (uint64_t)(b < 0 ? LINE_LIMIT : (unsigned)b);
    if (2 * (t->run_arcs_used + 1) > t->arcs_capacity && grow_arcs(t) < 0) return -1;
    Py_ssize_t mask = t->arcs_capacity - 1;
    Py_ssize_t j = (Py_ssize_t)(mix(key) & (uint64_t)mask);
    while (t->arcs[j].generation == t->generation) {
        if (t->arcs[j].key == key) return 0;
        j = (j + 1) & mask;
    }
    if (grow((void **)&t->run_arcs, &t->run_arcs_capacity, t->run_arcs_used, sizeof(uint64_t)) < 0) return -1;
    t->arcs[j].key = key;
    t->arcs[j].generation = t->generation;
    t->run_arcs[t->run_arcs_used++] = key;
    return 0;
}

static int add_kind(Tracer *t, int index, int line, PyObject *kind) {
    if (grow((void **)&t->run_kinds, &t->run_kinds_capacity, t->run_kinds_used, sizeof(KindRecord)) < 0) return -1;
    KindRecord *r = &t->run_kinds[t->run_kinds_used++];
    r->index = index;
    r->line = line;
    Py_INCREF(kind);
    r->kind = kind;
    return 0;
}

static void clear_kinds(Tracer *t) {
    for (Py_ssize_t i = 0; i < t->run_kinds_used; i++) Py_CLEAR(t->run_kinds[i].kind);
    t->run_kinds_used = 0;
}

/* ---- feature names ---- */

/* kinds are hashed by their text, not their address: equal kinds made apart name the same feature (the
 * hash of a str is kept in it, and cannot fail) */
static uint64_t name_hash(PyObject *code, uint64_t arc, PyObject *kind) {
    return mix((uint64_t)(uintptr_t)code ^ mix(arc) ^ (kind == NULL ? 0 : (uint64_t)PyObject_Hash(kind)));
}

static int grow_names(Tracer *t) {
    Py_ssize_t capacity = t->names_capacity ? t->names_capacity * 2 : 4096;
    NameSlot *slots = PyMem_Calloc((size_t)capacity, sizeof(NameSlot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < t->names_capacity; i++) {
        NameSlot *old = &t->names[i];
        if (old->code == NULL) continue;
        Py_ssize_t j = (Py_ssize_t)(name_hash(old->code, old->arc, old->kind) & (uint64_t)(capacity - 1));
        while (slots[j].code != NULL) j = (j + 1) & (capacity - 1);
        slots[j] = *old;
    }
    PyMem_Free(t->names);
    t->names = slots;
    t->names_capacity = capacity;
    return 0;
}

/* kinds are exact str (value_kind's answers are checked), whose comparison cannot fail */
static int same_kind(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    if (a == NULL || b == NULL) return 0;
    return PyUnicode_Compare(a, b) == 0;
}

/* The feature of (code, arc) or of (code, line, kind): a borrowed reference, asked of namer the first time. */
static NameSlot *name_slot(Tracer *t, PyObject *code, uint64_t arc, PyObject *kind) {
    Py_ssize_t mask = t->names_capacity - 1;
    Py_ssize_t j = (Py_ssize_t)(name_hash(code, arc, kind) & (uint64_t)mask);
    while (t->names[j].code != NULL) {
        NameSlot *n = &t->names[j];
        if (n->code == code && n->arc == arc && same_kind(n->kind, kind)) break;
        j = (j + 1) & mask;
    }
    return &t->names[j];
}

/* The feature of (code, arc) or of (code, line, kind): a borrowed reference, asked of namer the first time. */
static PyObject *feature_name(Tracer *t, PyObject *code, uint64_t arc, PyObject *kind) {
    if (2 * (t->names_used + 1) > t->names_capacity && grow_names(t) < 0) return NULL;
    NameSlot *n = name_slot(t, code, arc, kind);
    if (n->code != NULL) return n->name;
    PyObject *name;
    if (kind == NULL) {
        long b = (long)(arc & ((1ULL << LINE_BITS) - 1));
        name = PyObject_CallFunction(t->namer, "OllO", code, (long)(arc >> LINE_BITS), b == (long)LINE_LIMIT ? -1L : b,
                                     Py_None);
    } else {
        name = PyObject_CallFunction(t->namer, "OllO", code, (long)arc, -1L, kind);
    }
    if (name == NULL) return NULL;
    if (!PyUnicode_CheckExact(name)) {
        PyErr_SetString(PyExc_TypeError, "namer must return a str");
        Py_DECREF(name);
        return NULL;
    }
    n = name_slot(t, code, arc, kind); /* found again: nothing namer runs should touch the table, all the same */
    if (n->code != NULL) {
        Py_DECREF(name);
        return n->name;
    }
    n->code = code;
    n->arc = arc;
    Py_XINCREF(kind);
    n->kind = kind;
    n->name = name;
    t->names_used++;
    return name;
}

/* ---- events ---- */

static int push(Tracer *t, PyFrameObject *frame, int mode, int index, int last) {
    if (grow((void **)&t->stack, &t->stack_capacity, t->depth, sizeof(Entry)) < 0) return -1;
    Entry *e = &t->stack[t->depth++];
    e->frame = frame;
    e->mode = mode;
    e->index = index;
    e->last = last;
    return 0;
}

static int is_watched(Tracer *t, PyObject *code) {
    Py_ssize_t n = PyTuple_GET_SIZE(t->watched);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyTuple_GET_ITEM(t->watched, i) == code) return 1;
    }
    return 0;
}

/* The index of ``slot``'s code in this run's list of called codes, given on its first call in the run. */
static int run_index(Tracer *t, CodeSlot *slot) {
    if (slot->stamp != t->stamp) {
        Py_ssize_t index = PyList_GET_SIZE(t->seen);
        if ((size_t)index >= INDEX_LIMIT) {
            PyErr_SetString(PyExc_ValueError, "the compiled tracer keeps at most 2**21 - 2 functions per run");
            return -1;
        }
        if (PyList_Append(t->seen, slot->code) < 0) return -1;
        slot->stamp = t->stamp;
        slot->index = (int)index;
    }
    return slot->index;
}

static int on_call(Tracer *t, PyFrameObject *frame) {
    PyCodeObject *code = PyFrame_GetCode(frame);
    Py_DECREF(code); /* the running frame holds it */
    PyObject *c = (PyObject *)code;
    if (t->watched != NULL && is_watched(t, c)) {
        if (!t->inside_watched) { /* a watched method's own calls of another are part of its answer */
            PyObject *r = PyObject_CallFunctionObjArgs(t->on_watched, (PyObject *)frame,
                                                       t->inside_remembered > 0 ? Py_True : Py_False, NULL);
            if (r == NULL) return -1;
            Py_DECREF(r);
        }
        t->inside_remembered++;
        t->inside_watched++;
        return push(t, frame, FRAME_WATCHED, -1, 0);
    }
    if (t->watch_only || t->inside_remembered) return push(t, frame, FRAME_IGNORED, -1, 0);
    CodeSlot *slot = code_slot(t, c);
    if (slot == NULL) return -1;
    if (slot->kind < 0) {
        PyObject *r = PyObject_CallOneArg(t->decide, c);
        if (r == NULL) return -1;
        long kind = PyLong_AsLong(r);
        Py_DECREF(r);
        if (kind == -1 && PyErr_Occurred()) return -1;
        if (kind < KIND_OTHER || kind > KIND_REMEMBERED) {
            PyErr_Format(PyExc_ValueError, "decide returned %ld, not 0, 1 or 2", kind);
            return -1;
        }
        slot->kind = (int)kind; /* decide runs no traced code and cannot reach the table: the slot stays */
    }
    if (slot->kind == KIND_REMEMBERED) {
        t->inside_remembered++;
        return push(t, frame, FRAME_REMEMBERED, -1, 0);
    }
    int index = run_index(t, slot);
    if (index < 0) return -1;
    if (slot->kind == KIND_OTHER) return push(t, frame, FRAME_OTHER, index, 0);
    return push(t, frame, FRAME_MODEL, index, code->co_firstlineno);
}

/* The kind of a returned value (a new reference; None for a value without one), as coverage._value_kind. */
static PyObject *value_kind(Tracer *t, PyObject *value) {
    if (value == Py_None) return Py_NewRef(KIND_NONE);
    if (value == Py_True) return Py_NewRef(KIND_TRUE);
    if (value == Py_False) return Py_NewRef(KIND_FALSE);
    if (PyLong_CheckExact(value)) {
        int sign = _PyLong_Sign(value);
        return Py_NewRef(sign < 0 ? KIND_NEG : sign == 0 ? KIND_ZERO : KIND_POS);
    }
    if (PyLong_Check(value) || PyTuple_Check(value) || PyList_Check(value) || PyAnySet_Check(value)) {
        PyObject *kind = PyObject_CallOneArg(t->value_kind, value);
        if (kind != NULL && kind != Py_None && !PyUnicode_CheckExact(kind)) {
            PyErr_Format(PyExc_TypeError, "value_kind must return a str or None, not %.100s", Py_TYPE(kind)->tp_name);
            Py_CLEAR(kind);
        }
        return kind;
    }
    return Py_NewRef(Py_None); /* no other type is pictured */
}

/* Leave the top frame of the stack (``value``: what it returned, Py_None when an exception left it). */
static int leave(Tracer *t, PyObject *value) {
    Entry e = t->stack[--t->depth];
    switch (e.mode) {
    case FRAME_WATCHED:
        t->inside_watched--;
        t->inside_remembered--;
        return 0;
    case FRAME_REMEMBERED:
        t->inside_remembered--;
        return 0;
    case FRAME_MODEL:
        break;
    default:
        return 0;
    }
    if (add_arc(t, e.index, e.last, -1) < 0) return -1;
    PyObject *kind = value_kind(t, value);
    if (kind == NULL) return -1;
    int added = kind == Py_None ? 0 : add_kind(t, e.index, e.last, kind);
    Py_DECREF(kind);
    return added;
}

static int on_return(Tracer *t, PyFrameObject *frame, PyObject *arg) {
    Py_ssize_t at = t->depth - 1;
    while (at >= 0 && t->stack[at].frame != frame) at--;
    if (at < 0) return 0; /* a frame that was running before the tracer started */
    while (t->depth - 1 > at) { /* frames whose return was not seen (none in CPython): left without a value */
        if (leave(t, Py_None) < 0) return -1;
    }
    return leave(t, arg != NULL ? arg : Py_None);
}

static int trace(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg) {
    Tracer *t = (Tracer *)obj;
    switch (what) {
    case PyTrace_CALL:
        return on_call(t, frame);
    case PyTrace_LINE: {
        if (t->depth == 0) return 0;
        Entry *e = &t->stack[t->depth - 1];
        if (e->mode != FRAME_MODEL || e->frame != frame) return 0;
        int line = PyFrame_GetLineNumber(frame);
        if (add_arc(t, e->index, e->last, line) < 0) return -1;
        e->last = line;
        return 0;
    }
    case PyTrace_RETURN:
        return on_return(t, frame, arg);
    default:
        return 0;
    }
}

static int profile(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg) {
    Tracer *t = (Tracer *)obj;
    if (what != PyTrace_CALL) return 0;
    PyCodeObject *code = PyFrame_GetCode(frame);
    Py_DECREF(code);
    CodeSlot *slot = code_slot(t, (PyObject *)code);
    if (slot == NULL) return -1;
    return run_index(t, slot) < 0 ? -1 : 0;
}

/* ---- runs ---- */

/* Start a run: no records, a new stamp and arc generation. */
static int begin(Tracer *t, PyObject *watched, int watch_only) {
    if (t->decide == NULL || t->value_kind == NULL || t->on_watched == NULL || t->namer == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this tracer was not initialised (Tracer(decide, value_kind, on_watched, namer))");
        return -1;
    }
    if (t->active) {
        PyErr_SetString(PyExc_RuntimeError, "this tracer is already running (a nested run needs another)");
        return -1;
    }
    if (t->codes_used > CODES_KEPT) forget_codes(t);
    if (++t->stamp == 0) { /* after 2**32 runs: no slot may look given in this one */
        for (Py_ssize_t i = 0; i < t->codes_capacity; i++) t->codes[i].stamp = 0;
        t->stamp = 1;
    }
    if (++t->generation == 0) {
        for (Py_ssize_t i = 0; i < t->arcs_capacity; i++) t->arcs[i].generation = 0;
        t->generation = 1;
    }
    t->run_arcs_used = 0;
    clear_kinds(t);
    t->depth = 0;
    t->inside_remembered = t->inside_watched = 0;
    t->watch_only = watch_only;
    t->seen = PyList_New(0);
    if (t->seen == NULL) return -1;
    if (watched != NULL && PyTuple_GET_SIZE(watched) > 0) t->watched = Py_NewRef(watched);
    t->active = 1;
    return 0;
}

static void end(Tracer *t) {
    t->active = 0;
    t->depth = 0;
    Py_CLEAR(t->watched);
}

/* run() with ``func`` installed as the trace function (``profiling``: the profile function), the previous
 * one restored after it, even if run() raised. */
static PyObject *call_traced(Tracer *t, PyObject *run, Py_tracefunc func, int profiling) {
    PyThreadState *ts = PyThreadState_Get();
    Py_tracefunc previous = profiling ? ts->c_profilefunc : ts->c_tracefunc;
    PyObject *previous_obj = profiling ? ts->c_profileobj : ts->c_traceobj;
    Py_XINCREF(previous_obj);
    if (profiling) PyEval_SetProfile(func, (PyObject *)t);
    else PyEval_SetTrace(func, (PyObject *)t);
    PyObject *result = PyObject_CallNoArgs(run);
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    if (profiling) PyEval_SetProfile(previous, previous_obj);
    else PyEval_SetTrace(previous, previous_obj);
    Py_XDECREF(previous_obj);
    PyErr_Restore(type, value, traceback);
    return result;
}

/* The clause IDs of the code objects called (a new frozenset): each one's tuple in ``mapping``. */
static PyObject *clauses_of(PyObject *seen, PyObject *mapping) {
    PyObject *clauses = PyFrozenSet_New(NULL);
    if (clauses == NULL) return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(seen); i++) {
        PyObject *ids = PyDict_GetItemWithError(mapping, PyList_GET_ITEM(seen, i));
        if (ids == NULL) {
            if (PyErr_Occurred()) goto error;
            continue;
        }
        if (!PyTuple_Check(ids)) {
            PyErr_SetString(PyExc_TypeError, "the clause mapping's values must be tuples");
            goto error;
        }
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(ids); k++) {
            if (PySet_Add(clauses, PyTuple_GET_ITEM(ids, k)) < 0) goto error;
        }
    }
    return clauses;
error:
    Py_DECREF(clauses);
    return NULL;
}

/* The outcome features of this run (a new frozenset). */
static PyObject *features_of(Tracer *t, PyObject *seen) {
    PyObject *features = PyFrozenSet_New(NULL);
    if (features == NULL) return NULL;
    for (Py_ssize_t i = 0; i < t->run_arcs_used; i++) {
        uint64_t key = t->run_arcs[i];
        PyObject *code = PyList_GET_ITEM(seen, (Py_ssize_t)(key >> (2 * LINE_BITS)) - 1);
        PyObject *name = feature_name(t, code, key & ARC_MASK, NULL);
        if (name == NULL || PySet_Add(features, name) < 0) goto error;
    }
    for (Py_ssize_t i = 0; i < t->run_kinds_used; i++) {
        KindRecord *r = &t->run_kinds[i];
        PyObject *name = feature_name(t, PyList_GET_ITEM(seen, r->index), (uint64_t)r->line, r->kind);
        if (name == NULL || PySet_Add(features, name) < 0) goto error;
    }
    return features;
error:
    Py_DECREF(features);
    return NULL;
}

static PyObject *Tracer_outcomes(Tracer *t, PyObject *args) {
    PyObject *run, *watched, *mapping;
    int watch_only;
    if (!PyArg_ParseTuple(args, "OO!pO!:outcomes", &run, &PyTuple_Type, &watched, &watch_only, &PyDict_Type,
                          &mapping)) {
        return NULL;
    }
    if (begin(t, watched, watch_only) < 0) return NULL;
    PyObject *result = call_traced(t, run, trace, 0);
    end(t);
    PyObject *seen = t->seen;
    t->seen = NULL;
    if (result == NULL) {
        clear_kinds(t);
        Py_DECREF(seen);
        return NULL;
    }
    if (watch_only) {
        Py_DECREF(seen);
        return Py_BuildValue("(NOO)", result, Py_None, Py_None);
    }
    PyObject *clauses = clauses_of(seen, mapping);
    PyObject *features = clauses == NULL ? NULL : features_of(t, seen);
    clear_kinds(t);
    Py_DECREF(seen);
    if (features == NULL) {
        Py_XDECREF(clauses);
        Py_DECREF(result);
        return NULL;
    }
    return Py_BuildValue("(NNN)", result, clauses, features);
}

static PyObject *Tracer_calls(Tracer *t, PyObject *args) {
    PyObject *run, *mapping;
    if (!PyArg_ParseTuple(args, "OO!:calls", &run, &PyDict_Type, &mapping)) return NULL;
    if (begin(t, NULL, 0) < 0) return NULL;
    PyObject *result = call_traced(t, run, profile, 1);
    end(t);
    PyObject *seen = t->seen;
    t->seen = NULL;
    if (result == NULL) {
        Py_DECREF(seen);
        return NULL;
    }
    PyObject *clauses = clauses_of(seen, mapping);
    Py_DECREF(seen);
    if (clauses == NULL) {
        Py_DECREF(result);
        return NULL;
    }
    return Py_BuildValue("(NN)", result, clauses);
}

static PyObject *Tracer_forget(Tracer *t, PyObject *unused) {
    if (t->active) {
        PyErr_SetString(PyExc_RuntimeError, "a running tracer cannot forget");
        return NULL;
    }
    forget_codes(t);
    Py_RETURN_NONE;
}

static int Tracer_init(Tracer *t, PyObject *args, PyObject *kwds) {
    static char *names[] = {"decide", "value_kind", "on_watched", "namer", NULL};
    PyObject *decide, *value_kind, *on_watched, *namer;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO:Tracer", names, &decide, &value_kind, &on_watched, &namer)) {
        return -1;
    }
    if (t->active) {
        PyErr_SetString(PyExc_RuntimeError, "a running tracer cannot be initialised again");
        return -1;
    }
    forget_codes(t); /* names made by another namer */
    Py_XSETREF(t->decide, Py_NewRef(decide));
    Py_XSETREF(t->value_kind, Py_NewRef(value_kind));
    Py_XSETREF(t->on_watched, Py_NewRef(on_watched));
    Py_XSETREF(t->namer, Py_NewRef(namer));
    return 0;
}

/* The callbacks may hold the tracer (bound methods of its Python owner): the collector sees both ways. */
static int Tracer_traverse(Tracer *t, visitproc visit, void *arg) {
    Py_VISIT(t->decide);
    Py_VISIT(t->value_kind);
    Py_VISIT(t->on_watched);
    Py_VISIT(t->namer);
    Py_VISIT(t->watched);
    Py_VISIT(t->seen);
    return 0;
}

static int Tracer_clear(Tracer *t) {
    Py_CLEAR(t->decide);
    Py_CLEAR(t->value_kind);
    Py_CLEAR(t->on_watched);
    Py_CLEAR(t->namer);
    return 0;
}

static void Tracer_dealloc(Tracer *t) {
    PyObject_GC_UnTrack(t);
    forget_codes(t);
    clear_kinds(t);
    PyMem_Free(t->codes);
    PyMem_Free(t->names);
    PyMem_Free(t->arcs);
    PyMem_Free(t->run_arcs);
    PyMem_Free(t->run_kinds);
    PyMem_Free(t->stack);
    Py_XDECREF(t->decide);
    Py_XDECREF(t->value_kind);
    Py_XDECREF(t->on_watched);
    Py_XDECREF(t->namer);
    Py_XDECREF(t->watched);
    Py_XDECREF(t->seen);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyMethodDef Tracer_methods[] = {
    {"outcomes", (PyCFunction)Tracer_outcomes, METH_VARARGS,
     "outcomes(run, watched, watch_only, mapping) -> (result, clauses, features): run() traced (clauses and "
     "features None where watch_only)."},
    {"calls", (PyCFunction)Tracer_calls, METH_VARARGS,
     "calls(run, mapping) -> (result, clauses): run() profiled."},
    {"forget", (PyCFunction)Tracer_forget, METH_NOARGS, "Forget every decision and feature name kept."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TracerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardrules.oracle.trace.ctracer.Tracer",
    .tp_basicsize = sizeof(Tracer),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Tracer(decide, value_kind, on_watched, namer): the outcome tracer, compiled.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tracer_init,
    .tp_dealloc = (destructor)Tracer_dealloc,
    .tp_traverse = (traverseproc)Tracer_traverse,
    .tp_clear = (inquiry)Tracer_clear,
    .tp_methods = Tracer_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ctracer", "The outcome tracer of cardrules.oracle.trace.coverage, compiled.", -1, NULL,
};

PyMODINIT_FUNC PyInit_ctracer(void) {
    if (PyType_Ready(&TracerType) < 0) return NULL;
    if ((KIND_NONE = PyUnicode_InternFromString("None")) == NULL) return NULL;
    if ((KIND_TRUE = PyUnicode_InternFromString("True")) == NULL) return NULL;
    if ((KIND_FALSE = PyUnicode_InternFromString("False")) == NULL) return NULL;
    if ((KIND_NEG = PyUnicode_InternFromString("neg")) == NULL) return NULL;
    if ((KIND_ZERO = PyUnicode_InternFromString("zero")) == NULL) return NULL;
    if ((KIND_POS = PyUnicode_InternFromString("pos")) == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE_DIGEST", CTRACER_SOURCE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&TracerType);
    if (PyModule_AddObject(m, "Tracer", (PyObject *)&TracerType) < 0) {
        Py_DECREF(&TracerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
