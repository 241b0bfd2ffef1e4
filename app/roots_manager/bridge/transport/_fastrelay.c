/*
 * The relay's hot path in C: read, frame, triage and write the ordinary line without holding the
 * interpreter lock, so that relaying costs close to what a compiled two-thread pump costs.
 *
 * Three types, used by roots_manager.bridge.transport.pump and roots_manager.bridge.transport.writer
 * (the Ledger by roots_manager.bridge.run.noted):
 *
 * Gate(fd)
 *     One destination: its descriptor, the lock every write to it holds (the LineWriter's lock,
 *     usable from Python as a context manager and with acquire/release), and the flags the hot
 *     path must see: closed (the writer drops what comes), broken (a write failed: the reader is
 *     gone), mid_line (the relay stopped inside a line).
 *
 * FastPump(src_fd, gate, relay, read_size, ledger=None, from_host=False)
 *     One direction, in front of a LineRelay (its triage, adopt_stream and stream_ended, its
 *     stream_threshold and max_held). next() reads and relays, in a loop without the interpreter
 *     lock, every line that provably needs no thought, and returns to Python with what does:
 *       - bytes: a chunk the Python relay (LineRelay.feed) must take, exactly as if it had been
 *         read in one go; b"" at the end of the stream;
 *       - an int: the errno of a write that failed (the destination is broken; what follows is
 *         dropped, as FdSink does).
 *
 * A line is relayed here only when all of these hold, and otherwise it goes to Python, which
 * decides it as it always has (so the C path changes no outcome, only where it is computed):
 *   - it ends the chunk it arrived in (or, held across reads, the chunk that ends it), and no
 *     partial line is pending in the Python relay;
 *   - it opens with { or [ and closes with } or ] (a line Python would not note as non-JSON);
 *   - it is UTF-8 (Python would note it otherwise);
 *   - triage() returns (patterns, guarded, may_stream), not None, and no pattern occurs in the
 *     line. triage() is asked again (with the interpreter lock) only after a chunk went to
 *     Python, or after note_change() said that the handlers may answer otherwise: the ordinary
 *     line is read, judged and written without the interpreter lock at all;
 *   - when guarded, no escape that could stand for a letter (backslash before one of uxUosli1)
 *     and no NUL byte (bridge/protocol/lenient.py, disguised()).
 *   - when triage() says the lines are only counted (a fourth member, true: a confined server's
 *     run, or one that may restart its server, must know every request open), the line is
 *     noted in the pump's Ledger first, and goes to Python whenever the ledger cannot take it.
 * A line longer than one read is held here while it is shorter than stream_threshold, or, for a
 * guarded direction, than max_held (the Python relay holds those lines whole too). Past that, a
 * line that may stream (not guarded, no pattern in it so far) is streamed here as LineRelay
 * would: written as it arrives, watched for a pattern across reads; the moment something about
 * it needs thought (a pattern, the direction becoming guarded) the relay adopts the stream
 * (adopt_stream) and takes the chunk, and a line streamed to its end is reported to it
 * (stream_ended) so that what waited for it goes out. Any other long line goes to Python.
 *
 * Ledger(methods, answered_kept)
 *     One run's record of the lines its pumps relayed that Python only counts (bridge/run/
 *     noted.py takes it, in order, whenever the loop counts). Each line is scanned whole, as
 *     strict JSON, for its top-level "id", "method", "result" and "error"; a line the scan is
 *     not sure of (not one object, a member twice or named with an escape, an id that is not an
 *     integer nor a string without escapes, a method with an escape, one of *methods*: those
 *     that count for more than a request open) goes to Python as before. A request of the host
 *     and the server's answer to it stay as one pair (the last *answered_kept*; older pairs
 *     change nothing Python keeps), a request of the server and the host's answer cancel out,
 *     a notification is not kept; anything else is kept as the line itself, up to max_entries
 *     lines and max_bytes (a line longer than max_line, or one past those, goes to Python,
 *     which takes what is here first). Nothing is decided here: Python counts what it takes as
 *     it counts a line it read itself.
 *
 * POSIX only; on other systems the bridge runs the Python relay alone.
 */
#define PY_SSIZE_T_CLEAN
#define _GNU_SOURCE
#include <Python.h>
#include <structmember.h>

#include <errno.h>
#include <time.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- Gate ----------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyThread_type_lock lock;
    int fd;
    int closed;
    int broken;
    int mid_line;
} Gate;

static int Gate_init(Gate *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"fd", NULL};
    int fd = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|i", kwlist, &fd)) return -1;
    if (self->lock == NULL) {
        self->lock = PyThread_allocate_lock();
        if (self->lock == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    self->fd = fd;
    return 0;
}

static void Gate_dealloc(Gate *self) {
    if (self->lock != NULL) PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Takes *lock* from Python, letting the interpreter lock go while it waits (a pump holds it
 * without the interpreter lock, and must never wait for this thread). */
static void take_lock(PyThread_type_lock lock) {
    if (PyThread_acquire_lock(lock, NOWAIT_LOCK)) return;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
}

static PyObject *Gate_acquire(Gate *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"blocking", NULL};
    int blocking = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|p", kwlist, &blocking)) return NULL;
    if (PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) Py_RETURN_TRUE;
    if (!blocking) Py_RETURN_FALSE;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
    Py_RETURN_TRUE;
}

static PyObject *Gate_release(Gate *self, PyObject *Py_UNUSED(ignored)) {
    PyThread_release_lock(self->lock);
    Py_RETURN_NONE;
}

static PyObject *Gate_enter(Gate *self, PyObject *Py_UNUSED(ignored)) {
    take_lock(self->lock);
    Py_RETURN_TRUE;
}

static PyObject *Gate_exit(Gate *self, PyObject *Py_UNUSED(args)) {
    PyThread_release_lock(self->lock);
    Py_RETURN_FALSE;
}

static PyMethodDef Gate_methods[] = {
    {"acquire", (PyCFunction)(void (*)(void))Gate_acquire, METH_VARARGS | METH_KEYWORDS,
     "Take the lock (waiting without the interpreter lock); False if not blocking and taken."},
    {"release", (PyCFunction)Gate_release, METH_NOARGS, "Give the lock back."},
    {"__enter__", (PyCFunction)Gate_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)Gate_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Gate_members[] = {
    {"fd", T_INT, offsetof(Gate, fd), 0, "The destination's descriptor."},
    {"closed", T_BOOL, offsetof(Gate, closed), 0, "Writes are dropped (the writer was closed)."},
    {"broken", T_BOOL, offsetof(Gate, broken), 0, "A write failed: the reader is gone."},
    {"mid_line", T_BOOL, offsetof(Gate, mid_line), 0, "The relay stopped inside a line."},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject GateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "roots_manager.bridge.transport._fastrelay.Gate",
    .tp_basicsize = sizeof(Gate),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One destination: its descriptor, its write lock and its state.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Gate_init,
    .tp_dealloc = (destructor)Gate_dealloc,
    .tp_methods = Gate_methods,
    .tp_members = Gate_members,
};

/* ---- the checks ----------------------------------------------------------------------------- */

/* Whether buf[0:n] is UTF-8 as Python's strict decoder takes it (no surrogates, no overlong
 * forms, nothing past U+10FFFF). */
static int is_utf8(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        /* ASCII 32 bytes at a time, then 8 */
        while (i + 32 <= n) {
            unsigned long long w[4];
            memcpy(w, s + i, 32);
            if ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ULL) break;
            i += 32;
        }
        while (i + 8 <= n) {
            unsigned long long w;
            memcpy(&w, s + i, 8);
            if (w & 0x8080808080808080ULL) break;
            i += 8;
        }
        if (i >= n) break;
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            if (i + 1 >= n || (s[i + 1] & 0xC0) != 0x80) return 0;
            i += 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= n) return 0;
            unsigned char c1 = s[i + 1];
            if ((c1 & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80) return 0;
            if (c == 0xE0 && c1 < 0xA0) return 0;  /* overlong */
            if (c == 0xED && c1 >= 0xA0) return 0; /* surrogate */
            i += 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= n) return 0;
            unsigned char c1 = s[i + 1];
            if ((c1 & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80 || (s[i + 3] & 0xC0) != 0x80)
                return 0;
            if (c == 0xF0 && c1 < 0x90) return 0; /* overlong */
            if (c == 0xF4 && c1 >= 0x90) return 0; /* past U+10FFFF */
            i += 4;
        } else {
            return 0;
        }
    }
    return 1;
}

/* bridge/protocol/lenient.py, disguised(): an escape that could stand for a letter, or a NUL byte. */
static int disguised(const char *s, size_t n) {
    if (memchr(s, 0, n) != NULL) return 1;
    const char *p = s, *end = s + n;
    while ((p = memchr(p, '\\', (size_t)(end - p))) != NULL) {
        if (p + 1 >= end) break;
        switch (p[1]) {
        case 'u': case 'x': case 'U': case 'o': case 's': case 'l': case 'i': case '1':
            return 1;
        }
        p += 1;
    }
    return 0;
}

/* Whether the line s[0:n] (ending with its newline) is shaped like JSON at both ends, as
 * LineRelay._note_malformed checks before stripping blanks. */
static int json_shaped(const char *s, size_t n) {
    size_t end = n - 1;
    if (end > 0 && s[end - 1] == '\r') end--;
    if (end == 0) return 0;
    char a = s[0], z = s[end - 1];
    return (a == '{' || a == '[') && (z == '}' || z == ']');
}

/* ---- FastPump ------------------------------------------------------------------------------- */

#define TAIL 64 /* as LineRelay: the overlap kept for a pattern cut in two between reads */

/* Bumped by note_change() whenever the relays' handlers may answer triage() otherwise: the
 * bridge's carrier (transport/carrier.py) calls it, in one place, after each line the protocol
 * handled, held line it released, action and wake-up. A pump asks triage() again only then, or
 * after it gave Python a chunk, so the ordinary line needs no interpreter lock. */
static long epoch;

static PyObject *note_change(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored)) {
    __atomic_add_fetch(&epoch, 1, __ATOMIC_SEQ_CST);
    Py_RETURN_NONE;
}

/* ---- the scan of a line only counted ------------------------------------------------------- */

/* What a line tells of the requests open: read by a strict scan of the whole line as JSON, so
 * that a line this scan takes is one Python's reader takes too, with the same members. */
typedef struct {
    const char *id, *method;
    size_t id_len, method_len; /* the id as written (a string with its quotes), the method's text */
    int has_id, has_method, has_outcome; /* outcome: a result or an error */
} Facts;

#define MAX_DEPTH 64 /* deeper than this, Python reads the line (its reader has a limit too) */

static void skip_ws(const char *s, size_t n, size_t *i) {
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r')) (*i)++;
}

static int hexdigit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string at s[*i] (its opening quote), strictly; *escaped when it holds an escape. */
static int scan_string(const char *s, size_t n, size_t *i, int *escaped) {
    size_t k = *i + 1;
    *escaped = 0;
    while (k < n) {
        unsigned char c = (unsigned char)s[k];
        if (c == '"') {
            *i = k + 1;
            return 1;
        }
        if (c < 0x20) return 0;
        if (c == '\\') {
            *escaped = 1;
            if (k + 1 >= n) return 0;
            char e = s[k + 1];
            if (e == 'u') {
                if (k + 5 >= n || !hexdigit(s[k + 2]) || !hexdigit(s[k + 3]) ||
                    !hexdigit(s[k + 4]) || !hexdigit(s[k + 5]))
                    return 0;
                k += 6;
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == 0) return 0;
            k += 2;
            continue;
        }
        k++;
    }
    return 0;
}

/* A number at s[*i], strictly; *integer when it is -?(0|[1-9][0-9]*) alone. */
static int scan_number(const char *s, size_t n, size_t *i, int *integer) {
    size_t k = *i;
    *integer = 1;
    if (k < n && s[k] == '-') k++;
    if (k >= n) return 0;
    if (s[k] == '0') {
        k++;
    } else if (s[k] >= '1' && s[k] <= '9') {
        while (k < n && s[k] >= '0' && s[k] <= '9') k++;
    } else {
        return 0;
    }
    if (k < n && s[k] == '.') {
        *integer = 0;
        k++;
        if (k >= n || s[k] < '0' || s[k] > '9') return 0;
        while (k < n && s[k] >= '0' && s[k] <= '9') k++;
    }
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        *integer = 0;
        k++;
        if (k < n && (s[k] == '+' || s[k] == '-')) k++;
        if (k >= n || s[k] < '0' || s[k] > '9') return 0;
        while (k < n && s[k] >= '0' && s[k] <= '9') k++;
    }
    *i = k;
    return 1;
}

static int scan_value(const char *s, size_t n, size_t *i, int depth) {
    int flag;
    if (*i >= n) return 0;
    char c = s[*i];
    if (c == '"') return scan_string(s, n, i, &flag);
    if (c == '-' || (c >= '0' && c <= '9')) return scan_number(s, n, i, &flag);
    if (c == 't' || c == 'f' || c == 'n') {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t len = strlen(word);
        if (*i + len > n || memcmp(s + *i, word, len) != 0) return 0;
        *i += len;
        return 1;
    }
    if (c != '{' && c != '[') return 0;
    if (depth >= MAX_DEPTH) return 0;
    char close = c == '{' ? '}' : ']';
    (*i)++;
    skip_ws(s, n, i);
    if (*i < n && s[*i] == close) {
        (*i)++;
        return 1;
    }
    for (;;) {
        if (c == '{') {
            if (*i >= n || s[*i] != '"' || !scan_string(s, n, i, &flag)) return 0;
            skip_ws(s, n, i);
            if (*i >= n || s[*i] != ':') return 0;
            (*i)++;
            skip_ws(s, n, i);
        }
        if (!scan_value(s, n, i, depth + 1)) return 0;
        skip_ws(s, n, i);
        if (*i >= n) return 0;
        if (s[*i] == ',') {
            (*i)++;
            skip_ws(s, n, i);
            continue;
        }
        if (s[*i] != close) return 0;
        (*i)++;
        return 1;
    }
}

static int key_is(const char *k, size_t len, const char *name) {
    return strlen(name) == len && memcmp(k, name, len) == 0;
}

/* The facts of the line s[0:n] (without its ending): 1 when it is one JSON object, strictly,
 * whose members "id", "method", "result" and "error" each appear at most once under a name
 * without an escape, whose id (if any) is an integer or a string without an escape, and whose
 * method (if any) is a string without an escape; 0 otherwise (Python reads it). */
static int scan_facts(const char *s, size_t n, Facts *f) {
    size_t i = 0;
    int seen_result = 0, seen_error = 0, escaped;
    memset(f, 0, sizeof(*f));
    if (n == 0 || s[0] != '{') return 0;
    i = 1;
    skip_ws(s, n, &i);
    if (i < n && s[i] == '}') {
        i++;
    } else {
        for (;;) {
            if (i >= n || s[i] != '"') return 0;
            size_t k0 = i + 1;
            if (!scan_string(s, n, &i, &escaped)) return 0;
            const char *key = s + k0;
            size_t key_len = i - 1 - k0;
            skip_ws(s, n, &i);
            if (i >= n || s[i] != ':') return 0;
            i++;
            skip_ws(s, n, &i);
            size_t v0 = i;
            if (escaped) { /* a name that may spell one of ours in disguise */
                return 0;
            } else if (key_is(key, key_len, "id")) {
                if (f->has_id || i >= n) return 0;
                f->has_id = 1;
                int integer;
                if (s[i] == '"') {
                    if (!scan_string(s, n, &i, &escaped) || escaped) return 0;
                } else if (s[i] == '-' || (s[i] >= '0' && s[i] <= '9')) {
                    if (!scan_number(s, n, &i, &integer) || !integer) return 0;
                } else {
                    return 0; /* null, true, an object: Python's */
                }
                f->id = s + v0;
                f->id_len = i - v0;
            } else if (key_is(key, key_len, "method")) {
                if (f->has_method || i >= n || s[i] != '"') return 0;
                if (!scan_string(s, n, &i, &escaped) || escaped) return 0;
                f->has_method = 1;
                f->method = s + v0 + 1;
                f->method_len = i - v0 - 2;
            } else {
                int *seen = key_is(key, key_len, "result") ? &seen_result
                            : key_is(key, key_len, "error") ? &seen_error
                                                              : NULL;
                if (seen != NULL) {
                    if (*seen) return 0;
                    *seen = 1;
                }
                if (!scan_value(s, n, &i, 1)) return 0;
            }
            skip_ws(s, n, &i);
            if (i >= n) return 0;
            if (s[i] == ',') {
                i++;
                skip_ws(s, n, &i);
                continue;
            }
            if (s[i] != '}') return 0;
            i++;
            break;
        }
    }
    skip_ws(s, n, &i);
    f->has_outcome = seen_result || seen_error;
    return i == n;
}

/* ---- Ledger --------------------------------------------------------------------------------- */

/* A line the hot path relayed and only noted, kept for Python, or an answer to one. */
typedef struct Entry {
    struct Entry *prev, *next; /* the ledger, in the order the lines went */
    struct Entry *chain;       /* the next request open in the same bucket */
    struct Entry *answer;      /* a host request answered: the note of its answer */
    struct Entry *request;     /* an answer: the request it answered */
    unsigned hash;
    int from_host, open, answered;
    double at;
    char *id; /* a request's id or an answer's, as written, in line or own */
    size_t id_len, len;
    char *line; /* the line as relayed (NULL for an answer: its id is all Python needs) */
} Entry;

#define BUCKETS 1024

typedef struct {
    PyObject_HEAD
    PyThread_type_lock lock;
    Entry *first, *last;
    Entry *open[2][BUCKETS]; /* the requests open: [0] the server's, [1] the host's */
    Entry **answered;        /* the host's requests answered here, oldest first (a ring) */
    size_t answered_kept, answered_head, answered_n;
    size_t entries, bytes, max_entries, max_bytes, max_line;
    unsigned long long noted, handed; /* lines noted here, and handed to Python instead */
    PyObject *methods; /* a tuple of bytes: methods whose lines Python reads itself */
} Ledger;

static unsigned hash_id(const char *s, size_t n) {
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void unlink_entry(Ledger *self, Entry *e) {
    if (e->prev) e->prev->next = e->next; else self->first = e->next;
    if (e->next) e->next->prev = e->prev; else self->last = e->prev;
    self->entries--;
    self->bytes -= e->line != NULL ? e->len : e->id_len; /* a request's id is in its line */
    if (e->line == NULL) free(e->id);
    free(e->line);
    free(e);
}

static void unmap(Ledger *self, Entry *e) {
    Entry **p = &self->open[e->from_host][e->hash % BUCKETS];
    while (*p != NULL && *p != e) p = &(*p)->chain;
    if (*p == e) *p = e->chain;
    e->open = 0;
    e->chain = NULL;
}

static Entry *find_open(Ledger *self, int host, const char *id, size_t n, unsigned h) {
    for (Entry *e = self->open[host][h % BUCKETS]; e != NULL; e = e->chain)
        if (e->hash == h && e->id_len == n && memcmp(e->id, id, n) == 0) return e;
    return NULL;
}

static Entry *append(Ledger *self, int from_host, double at) {
    Entry *e = calloc(1, sizeof(Entry));
    if (e == NULL) return NULL;
    e->from_host = from_host;
    e->at = at;
    e->prev = self->last;
    if (self->last) self->last->next = e; else self->first = e;
    self->last = e;
    self->entries++;
    return e;
}

static void drop_all(Ledger *self) {
    while (self->first != NULL) unlink_entry(self, self->first);
    memset(self->open, 0, sizeof(self->open));
    self->answered_head = self->answered_n = 0;
}

static int Ledger_init(Ledger *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"methods", "answered_kept", "max_entries", "max_bytes", "max_line",
                             NULL};
    PyObject *methods;
    Py_ssize_t kept = 64, max_entries = 4096, max_bytes = 4 << 20, max_line = 64 << 10;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!|nnnn", kwlist, &PyTuple_Type, &methods,
                                     &kept, &max_entries, &max_bytes, &max_line))
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(methods); i++) {
        if (!PyBytes_Check(PyTuple_GET_ITEM(methods, i))) {
            PyErr_SetString(PyExc_TypeError, "methods must be bytes");
            return -1;
        }
    }
    if (kept <= 0 || max_entries <= 0 || max_bytes <= 0 || max_line <= 0) {
        PyErr_SetString(PyExc_ValueError, "the bounds must be positive");
        return -1;
    }
    if (self->lock == NULL) {
        self->lock = PyThread_allocate_lock();
        if (self->lock == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    drop_all(self);
    free(self->answered);
    self->answered = calloc((size_t)kept, sizeof(Entry *));
    if (self->answered == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->answered_kept = (size_t)kept;
    self->max_entries = (size_t)max_entries;
    self->max_bytes = (size_t)max_bytes;
    self->max_line = (size_t)max_line;
    Py_INCREF(methods);
    Py_XSETREF(self->methods, methods);
    return 0;
}

static void Ledger_dealloc(Ledger *self) {
    drop_all(self);
    free(self->answered);
    Py_XDECREF(self->methods);
    if (self->lock != NULL) PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int lasting(Ledger *self, const Facts *f) {
    PyObject *m = self->methods;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(m); i++) {
        PyObject *b = PyTuple_GET_ITEM(m, i);
        if ((size_t)PyBytes_GET_SIZE(b) == f->method_len &&
            memcmp(PyBytes_AS_STRING(b), f->method, f->method_len) == 0)
            return 1;
    }
    return 0;
}

static double wall_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A host request answered here: kept, with its answer, among the last answered_kept. */
static void keep_answered(Ledger *self, Entry *request) {
    if (self->answered_n == self->answered_kept) { /* the oldest pair is forgotten */
        Entry *old = self->answered[self->answered_head];
        self->answered_head = (self->answered_head + 1) % self->answered_kept;
        self->answered_n--;
        unlink_entry(self, old->answer);
        unlink_entry(self, old);
    }
    self->answered[(self->answered_head + self->answered_n) % self->answered_kept] = request;
    self->answered_n++;
}

/* Note the line s[0:n] (with its ending), about to be relayed from the host (*from_host*) or
 * the server, in a pump whose triage was asked in *asked_in*. Without the interpreter lock.
 * 1: noted (or nothing to note), the pump relays it; 0: Python must have it (a line it reads
 * itself, the ledger full, or the lookout changed since it was asked); -1 out of memory. */
static int ledger_note(Ledger *self, int from_host, const char *s, size_t n, long asked_in) {
    size_t body = n - 1;
    if (body > 0 && s[body - 1] == '\r') body--;
    Facts f;
    int request = 0, answer = 0;
    int scanned = n <= self->max_line && scan_facts(s, body, &f);
    if (scanned) {
        request = f.has_id && f.has_method;
        answer = f.has_id && !f.has_method && f.has_outcome;
    }
    if (!scanned || (f.has_method && lasting(self, &f)) ||
        (!request && !answer && !(f.has_method && !f.has_id))) {
        __atomic_add_fetch(&self->handed, 1, __ATOMIC_RELAXED);
        return 0; /* Python reads it */
    }
    int rc = 1;
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    if (__atomic_load_n(&epoch, __ATOMIC_SEQ_CST) != asked_in) {
        rc = 0; /* something changed what is looked for: Python decides this line */
    } else if (!f.has_id) {
        /* a notification that is none of the methods Python reads: nothing to count */
    } else if (self->entries + 2 > self->max_entries || self->bytes + n > self->max_bytes) {
        rc = 0; /* Python counts what is here, then this line */
    } else {
        unsigned h = hash_id(f.id, f.id_len);
        /* an answer to a request noted here and not taken yet: host answers close the
         * server's requests, the server's answers the host's */
        Entry *asked = answer ? find_open(self, !from_host, f.id, f.id_len, h) : NULL;
        if (asked != NULL && !from_host) {
            Entry *e = append(self, 0, wall_now());
            char *id = e != NULL ? malloc(f.id_len) : NULL;
            if (id == NULL) {
                if (e) unlink_entry(self, e);
                rc = -1;
            } else {
                memcpy(id, f.id, f.id_len);
                e->id = id;
                e->id_len = f.id_len;
                self->bytes += f.id_len;
                e->request = asked;
                asked->answer = e;
                asked->answered = 1;
                unmap(self, asked);
                keep_answered(self, asked);
            }
        } else if (request && find_open(self, from_host, f.id, f.id_len, h) != NULL) {
            rc = 0; /* an id already open: Python counts both as it always has */
        } else if (asked != NULL) {
            /* the host answered the server's request: together they count for nothing */
            unmap(self, asked);
            unlink_entry(self, asked);
        } else {
            Entry *e = append(self, from_host, wall_now());
            char *line = e != NULL ? malloc(n) : NULL;
            if (line == NULL) {
                if (e) unlink_entry(self, e);
                rc = -1;
            } else {
                memcpy(line, s, n);
                e->line = line;
                e->len = n;
                self->bytes += n;
                if (request) {
                    e->id = line + (f.id - s);
                    e->id_len = f.id_len;
                    e->hash = h;
                    e->open = 1;
                    e->chain = self->open[from_host][h % BUCKETS];
                    self->open[from_host][h % BUCKETS] = e;
                }
            }
        }
    }
    if (rc > 0)
        self->noted++;
    else
        __atomic_add_fetch(&self->handed, 1, __ATOMIC_RELAXED); /* counted outside the lock too */
    PyThread_release_lock(self->lock);
    return rc;
}

static PyObject *Ledger_note(Ledger *self, PyObject *args) {
    int from_host;
    Py_buffer line;
    if (!PyArg_ParseTuple(args, "py*", &from_host, &line)) return NULL;
    const char *s = line.buf;
    size_t n = (size_t)line.len;
    int rc = 0;
    if (n > 0 && s[n - 1] == '\n' && n <= self->max_line &&
        is_utf8((const unsigned char *)s, n)) {
        /* the caller decided the line is only counted now: the epoch it was decided in */
        long now = __atomic_load_n(&epoch, __ATOMIC_SEQ_CST);
        Py_BEGIN_ALLOW_THREADS
        rc = ledger_note(self, from_host, s, n, now);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&line);
    if (rc > 0) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

static PyObject *Ledger_take(Ledger *self, PyObject *Py_UNUSED(ignored)) {
    take_lock(self->lock);
    PyObject *out = PyList_New(0);
    for (Entry *e = self->first; out != NULL && e != NULL; e = e->next) {
        PyObject *item;
        if (e->line != NULL)
            item = Py_BuildValue("(Oy#dO)", e->from_host ? Py_True : Py_False, e->line,
                                 (Py_ssize_t)e->len, e->at, Py_None);
        else
            item = Py_BuildValue("(OOdy#)", Py_False, Py_None, e->at, e->id,
                                 (Py_ssize_t)e->id_len);
        if (item == NULL || PyList_Append(out, item) < 0) Py_CLEAR(out);
        Py_XDECREF(item);
    }
    if (out != NULL) drop_all(self);
    PyThread_release_lock(self->lock);
    return out;
}


static PyObject *Ledger_enter(Ledger *self, PyObject *Py_UNUSED(ignored)) {
    take_lock(self->lock);
    Py_RETURN_NONE;
}

static PyObject *Ledger_exit(Ledger *self, PyObject *Py_UNUSED(args)) {
    PyThread_release_lock(self->lock);
    Py_RETURN_FALSE;
}

static PyObject *Ledger_len(Ledger *self, void *Py_UNUSED(closure)) {
    return PyLong_FromSize_t(self->entries);
}

static PyObject *Ledger_noted(Ledger *self, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(self->noted);
}

static PyObject *Ledger_handed(Ledger *self, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(__atomic_load_n(&self->handed, __ATOMIC_RELAXED));
}

static PyMethodDef Ledger_methods[] = {
    {"note", (PyCFunction)Ledger_note, METH_VARARGS,
     "note(from_host, line): note a whole line (with its newline) that the relay in Python "
     "relays only counted; False when Python must count it itself."},
    {"take", (PyCFunction)Ledger_take, METH_NOARGS,
     "Everything noted, in order, emptied: (from_host, line, at, None) for a line, (False, "
     "None, at, id) for the server's answer, id as written, to a host request noted before it."},
    {"__enter__", (PyCFunction)Ledger_enter, METH_NOARGS,
     "Hold the ledger: no pump notes a line meanwhile."},
    {"__exit__", (PyCFunction)Ledger_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Ledger_getset[] = {
    {"entries", (getter)Ledger_len, NULL, "How many entries wait to be taken.", NULL},
    {"noted", (getter)Ledger_noted, NULL, "How many lines were noted here so far.", NULL},
    {"handed", (getter)Ledger_handed, NULL,
     "How many lines the hot path would have relayed were handed to Python instead.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject LedgerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "roots_manager.bridge.transport._fastrelay.Ledger",
    .tp_basicsize = sizeof(Ledger),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The lines the hot path relayed that Python only counts, kept for it.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Ledger_init,
    .tp_dealloc = (destructor)Ledger_dealloc,
    .tp_methods = Ledger_methods,
    .tp_getset = Ledger_getset,
};

typedef struct {
    PyObject_HEAD
    int src;
    Gate *gate;
    PyObject *triage, *adopt, *ended; /* the relay's triage, adopt_stream, stream_ended */
    size_t size; /* the most one read takes */
    size_t stream_threshold;
    size_t max_held;
    /* where every read goes, after the start of a line read across chunks, while it is short
     * enough to hold (malloc maps it: its pages cost memory once a read reaches them) */
    char *held;
    size_t held_len, held_cap;
    int streaming; /* a long line is being forwarded as it arrives */
    size_t streamed;
    char tail[TAIL];
    size_t tail_len;
    int failed; /* the errno of a failed write, for the next call to return */
    /* triage()'s last answer, good while known and the epoch is the one it was asked in */
    PyObject *patterns;
    int guarded, may_stream, counted, known;
    Ledger *ledger; /* where a line only counted is noted (NULL: none is relayed here) */
    int from_host;
    long asked_in;
    PyThreadState *ts; /* while the interpreter lock is let go */
} FastPump;

static void let_go(FastPump *self) { self->ts = PyEval_SaveThread(); }

static void take(FastPump *self) {
    PyEval_RestoreThread(self->ts);
    self->ts = NULL;
}

static void FastPump_dealloc(FastPump *self) {
    Py_XDECREF(self->gate);
    Py_XDECREF(self->triage);
    Py_XDECREF(self->adopt);
    Py_XDECREF(self->ended);
    Py_XDECREF(self->patterns);
    Py_XDECREF(self->ledger);
    free(self->held);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int size_attr(PyObject *obj, const char *name, size_t *out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (v == NULL) return -1;
    Py_ssize_t n = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n <= 0) {
        PyErr_Format(PyExc_ValueError, "%s must be positive", name);
        return -1;
    }
    *out = (size_t)n;
    return 0;
}

static int FastPump_init(FastPump *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"src", "gate", "relay", "read_size", "ledger", "from_host", NULL};
    int src, from_host = 0;
    PyObject *gate, *relay, *ledger = Py_None;
    Py_ssize_t size = 1024 * 1024;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO!O|nOp", kwlist, &src, &GateType, &gate,
                                     &relay, &size, &ledger, &from_host))
        return -1;
    if (ledger != Py_None && !PyObject_TypeCheck(ledger, &LedgerType)) {
        PyErr_SetString(PyExc_TypeError, "ledger must be a Ledger or None");
        return -1;
    }
    if (size <= 0) {
        PyErr_SetString(PyExc_ValueError, "read_size must be positive");
        return -1;
    }
    if (size_attr(relay, "stream_threshold", &self->stream_threshold) < 0 ||
        size_attr(relay, "max_held", &self->max_held) < 0)
        return -1;
    PyObject *triage = PyObject_GetAttrString(relay, "triage");
    PyObject *adopt = PyObject_GetAttrString(relay, "adopt_stream");
    PyObject *ended = PyObject_GetAttrString(relay, "stream_ended");
    if (triage == NULL || adopt == NULL || ended == NULL) {
        Py_XDECREF(triage);
        Py_XDECREF(adopt);
        Py_XDECREF(ended);
        return -1;
    }
    Py_XSETREF(self->triage, triage);
    Py_XSETREF(self->adopt, adopt);
    Py_XSETREF(self->ended, ended);
    self->src = src;
    Py_INCREF(gate);
    Py_XSETREF(self->gate, (Gate *)gate);
    self->size = (size_t)size;
    self->known = 0;
    if (ledger != Py_None) Py_INCREF(ledger);
    Py_XSETREF(self->ledger, ledger == Py_None ? NULL : (Ledger *)ledger);
    self->from_host = from_host;
    return 0;
}

static int reserve(FastPump *self, size_t more) {
    if (self->held_len + more <= self->held_cap) return 0;
    size_t cap = self->held_cap ? self->held_cap : 64 * 1024;
    while (cap < self->held_len + more) cap *= 2;
    char *grown = realloc(self->held, cap);
    if (grown == NULL) return -1;
    self->held = grown;
    self->held_cap = cap;
    return 0;
}

/* Adds data[0:n] to what is held (nothing to copy when it was read in place, after it). */
static int hold(FastPump *self, const char *data, size_t n) {
    if (data != self->held + self->held_len) {
        if (reserve(self, n) < 0) return -1;
        memcpy(self->held + self->held_len, data, n);
    }
    self->held_len += n;
    return 0;
}

static void drop_held(FastPump *self) {
    self->held_len = 0;
    if (self->held_cap > 4 * 1024 * 1024) { /* do not keep a big buffer for one big line */
        free(self->held);
        self->held = NULL;
        self->held_cap = 0;
    }
}

/* The chunk for Python: what is held, then data[0:n]; empties what is held. With the
 * interpreter lock. Python may be inside a line after it: triage() is asked again next time. */
static PyObject *give(FastPump *self, const char *data, size_t n) {
    PyObject *out;
    self->known = 0;
    if (self->held_len == 0) return PyBytes_FromStringAndSize(data, (Py_ssize_t)n);
    if (data == self->held + self->held_len) { /* read in place, after what is held */
        out = PyBytes_FromStringAndSize(self->held, (Py_ssize_t)(self->held_len + n));
    } else {
        out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(self->held_len + n));
        if (out != NULL) {
            memcpy(PyBytes_AS_STRING(out), self->held, self->held_len);
            memcpy(PyBytes_AS_STRING(out) + self->held_len, data, n);
        }
    }
    drop_held(self);
    return out;
}

static int write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w >= 0) {
            s += w;
            n -= (size_t)w;
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            struct pollfd p = {fd, POLLOUT, 0};
            poll(&p, 1, -1);
        } else {
            return -errno;
        }
    }
    return 0;
}

/* Writes s[0:n] under the gate's lock; *mid_line* is the state it leaves the line in; *starts*
 * when it starts a line. 1: written (or dropped for a closed or broken destination); 0: the
 * destination is inside another line, nothing written; -errno: the write failed. Without the
 * interpreter lock. */
static int write_gated(Gate *gate, const char *s, size_t n, int starts, int mid_line) {
    int rc = 1;
    PyThread_acquire_lock(gate->lock, WAIT_LOCK);
    if (starts && gate->mid_line) {
        rc = 0;
    } else {
        if (!gate->closed && !gate->broken) {
            int r = write_all(gate->fd, s, n);
            if (r < 0) {
                gate->broken = 1;
                rc = r;
            }
        }
        gate->mid_line = mid_line;
    }
    PyThread_release_lock(gate->lock);
    return rc;
}

/* What triage() says, asked again only when it may have changed. Called without the
 * interpreter lock: 1 with self->patterns, ->guarded and ->may_stream good, 0 when Python must
 * have the chunk (both without the lock); -1 on an error, with the lock held. */
static int ask(FastPump *self) {
    long now = __atomic_load_n(&epoch, __ATOMIC_SEQ_CST);
    if (self->known && self->asked_in == now) return 1;
    take(self);
    self->known = 0;
    Py_CLEAR(self->patterns);
    PyObject *r = PyObject_CallNoArgs(self->triage);
    if (r == NULL) return -1;
    if (r == Py_None) {
        Py_DECREF(r);
        let_go(self);
        return 0;
    }
    Py_ssize_t parts = PyTuple_Check(r) ? PyTuple_GET_SIZE(r) : 0;
    if ((parts != 3 && parts != 4) || !PyTuple_Check(PyTuple_GET_ITEM(r, 0))) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_TypeError,
                        "triage() must return (patterns, guarded, may_stream[, counted])");
        return -1;
    }
    PyObject *pats = PyTuple_GET_ITEM(r, 0);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(pats); i++) {
        if (!PyBytes_Check(PyTuple_GET_ITEM(pats, i))) {
            Py_DECREF(r);
            PyErr_SetString(PyExc_TypeError, "patterns must be bytes");
            return -1;
        }
    }
    int g = PyObject_IsTrue(PyTuple_GET_ITEM(r, 1));
    int m = PyObject_IsTrue(PyTuple_GET_ITEM(r, 2));
    int c = parts == 4 ? PyObject_IsTrue(PyTuple_GET_ITEM(r, 3)) : 0;
    if (g < 0 || m < 0 || c < 0) {
        Py_DECREF(r);
        return -1;
    }
    if (c && self->ledger == NULL) { /* lines to count and nowhere to note them: Python's */
        Py_DECREF(r);
        let_go(self);
        return 0;
    }
    Py_INCREF(pats);
    self->patterns = pats; /* kept: its bytes are read without the lock while it lives */
    self->guarded = g;
    self->may_stream = m;
    self->counted = c;
    self->asked_in = now;
    self->known = 1;
    Py_DECREF(r);
    let_go(self);
    return 1;
}

static int mentions(PyObject *patterns, const char *s, size_t n) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(patterns); i++) {
        PyObject *p = PyTuple_GET_ITEM(patterns, i);
        if (memmem(s, n, PyBytes_AS_STRING(p), (size_t)PyBytes_GET_SIZE(p)) != NULL) return 1;
    }
    return 0;
}

static void keep_tail(FastPump *self, const char *data, size_t n) {
    /* the last TAIL bytes of what went out of the line so far */
    if (n >= TAIL) {
        memcpy(self->tail, data + n - TAIL, TAIL);
        self->tail_len = TAIL;
        return;
    }
    size_t keep = self->tail_len + n > TAIL ? TAIL - n : self->tail_len;
    memmove(self->tail, self->tail + self->tail_len - keep, keep);
    memcpy(self->tail + keep, data, n);
    self->tail_len = keep + n;
}

/* Python takes over the line being streamed (something about it needs thought). With the
 * interpreter lock. */
static int hand_over(FastPump *self) {
    self->streaming = 0;
    self->known = 0;
    PyObject *tail = PyBytes_FromStringAndSize(self->tail, (Py_ssize_t)self->tail_len);
    self->tail_len = 0;
    if (tail == NULL) return -1;
    PyObject *r = PyObject_CallFunction(self->adopt, "nO", (Py_ssize_t)self->streamed, tail);
    Py_DECREF(tail);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

/* One chunk of a line being streamed, without the interpreter lock: 1 relayed (the line may
 * have ended), 0 Python must take over with this chunk (both without the lock), -1 an error
 * (with the lock). */
static int stream_more(FastPump *self, const char *data, size_t n) {
    int ok = ask(self);
    if (ok <= 0) return ok;
    const char *nl = memchr(data, '\n', n);
    size_t end = nl ? (size_t)(nl - data) + 1 : n;
    size_t head = end < TAIL ? end : TAIL;
    char window[2 * TAIL];
    memcpy(window, self->tail, self->tail_len);
    memcpy(window + self->tail_len, data, head);
    if (self->guarded || self->counted || mentions(self->patterns, window, self->tail_len + head) ||
        mentions(self->patterns, data, end))
        return 0;
    int rc = write_gated(self->gate, data, end, 0, 1);
    if (rc < 0) self->failed = -rc;
    self->streamed += end;
    keep_tail(self, data, end);
    if (nl) {
        /* the line ended: the relay writes what waited for it and notes the line */
        self->streaming = 0;
        self->tail_len = 0;
        self->known = 0;
        take(self);
        PyObject *r = PyObject_CallFunction(self->ended, "n", (Py_ssize_t)self->streamed);
        if (r == NULL) return -1;
        Py_DECREF(r);
        let_go(self);
    }
    return 1;
}

static PyObject *FastPump_next(FastPump *self, PyObject *Py_UNUSED(ignored)) {
    let_go(self);
    for (;;) {
        if (self->failed) { /* said once; later writes are dropped (the gate is broken) */
            int e = self->failed;
            self->failed = 0;
            take(self);
            return PyLong_FromLong(e);
        }
        /* read after what is held (nothing, mostly): a line read across chunks is not copied */
        if (reserve(self, self->size) < 0) {
            take(self);
            return PyErr_NoMemory();
        }
        char *data = self->held + self->held_len;
        ssize_t got;
        for (;;) {
            got = read(self->src, data, self->size);
            if (got >= 0) break;
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                /* a descriptor someone else made non-blocking: wait for it rather than spin */
                struct pollfd p = {self->src, POLLIN, 0};
                poll(&p, 1, -1);
                continue;
            }
            got = 0; /* an unusable descriptor ends the stream, as Reader does */
            break;
        }
        size_t n = (size_t)got;
        if (n == 0) { /* what is held first; the next read sees the end again */
            take(self);
            if (self->streaming && hand_over(self) < 0) return NULL;
            return give(self, data, 0);
        }
        if (self->streaming) {
            int r = stream_more(self, data, n);
            if (r < 0) return NULL;
            if (r == 0) {
                take(self);
                if (hand_over(self) < 0) return NULL;
                return give(self, data, n);
            }
            const char *nl = memchr(data, '\n', n);
            if (nl && nl != data + n - 1) { /* what follows the line: Python's, whole */
                take(self);
                return give(self, nl + 1, (size_t)(data + n - nl - 1));
            }
            continue;
        }
        int ok = ask(self);
        if (ok < 0) return NULL;
        if (ok == 0) {
            take(self);
            return give(self, data, n);
        }
        const char *nl = memchr(data, '\n', n);
        if (nl == NULL) {
            /* a line that goes on: held while short, or, guarded, while Python would hold it */
            size_t total = self->held_len + n;
            /* a line to count too long for the ledger is Python's: it holds it from here */
            int counted_long = self->counted && total > self->ledger->max_line;
            if (!counted_long &&
                (total < self->stream_threshold || (self->guarded && total <= self->max_held))) {
                if (hold(self, data, n) < 0) {
                    take(self);
                    return PyErr_NoMemory();
                }
                continue;
            }
            /* long enough to stream, as LineRelay would: straight through, unless it is
             * guarded or mentions a pattern already (then Python holds or streams it) */
            const char *first = data;
            size_t first_len = n;
            if (self->held_len) { /* one piece, so that a pattern cut in two is seen */
                if (hold(self, data, n) < 0) {
                    take(self);
                    return PyErr_NoMemory();
                }
                first = self->held;
                first_len = self->held_len;
            }
            int rc = 0;
            if (!self->guarded && !self->counted && self->may_stream &&
                !mentions(self->patterns, first, first_len))
                rc = write_gated(self->gate, first, first_len, 1, 1);
            if (rc == 0) { /* Python's, whole */
                take(self);
                return self->held_len ? give(self, data, 0) : give(self, first, first_len);
            }
            self->streaming = 1;
            self->streamed = first_len;
            self->tail_len = 0;
            keep_tail(self, first, first_len);
            drop_held(self);
            if (rc < 0) self->failed = -rc;
            continue;
        }
        if (nl != data + n - 1) { /* more than one line */
            take(self);
            return give(self, data, n);
        }
        const char *line = data;
        size_t len = n;
        if (self->held_len) {
            if (hold(self, data, n) < 0) {
                take(self);
                return PyErr_NoMemory();
            }
            line = self->held;
            len = self->held_len;
        }
        int rc = 0;
        if (!(self->counted && len > self->ledger->max_line) && json_shaped(line, len) &&
            is_utf8((const unsigned char *)line, len) &&
            !mentions(self->patterns, line, len) && !(self->guarded && disguised(line, len - 1)) &&
            (!self->counted ||
             ledger_note(self->ledger, self->from_host, line, len, self->asked_in) > 0))
            rc = write_gated(self->gate, line, len, 1, 0);
        if (rc == 0) { /* Python decides the whole line */
            take(self);
            return self->held_len ? give(self, data, 0) : give(self, line, len);
        }
        drop_held(self);
        if (rc < 0) self->failed = -rc;
    }
}

static PyMethodDef FastPump_methods[] = {
    {"next", (PyCFunction)FastPump_next, METH_NOARGS,
     "Relay what needs no thought; return the next chunk for Python (b\"\" at the end), or "
     "the errno of a failed write."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject FastPumpType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "roots_manager.bridge.transport._fastrelay.FastPump",
    .tp_basicsize = sizeof(FastPump),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One direction's hot path.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)FastPump_init,
    .tp_dealloc = (destructor)FastPump_dealloc,
    .tp_methods = FastPump_methods,
};

static PyMethodDef module_methods[] = {
    {"note_change", note_change, METH_NOARGS,
     "The relays' handlers may answer triage() otherwise from now on: every pump asks again."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastrelay", "The relay's hot path in C.", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastrelay(void) {
    if (PyType_Ready(&GateType) < 0 || PyType_Ready(&FastPumpType) < 0 ||
        PyType_Ready(&LedgerType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&GateType);
    Py_INCREF(&FastPumpType);
    Py_INCREF(&LedgerType);
    if (PyModule_AddObject(m, "Gate", (PyObject *)&GateType) < 0 ||
        PyModule_AddObject(m, "FastPump", (PyObject *)&FastPumpType) < 0 ||
        PyModule_AddObject(m, "Ledger", (PyObject *)&LedgerType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
