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
 *     and no NUL byte (bridge/protocol/lenient_reading.py, disguised()).
 *   - when triage() says the lines are only counted (a fourth member, true: a confined server's
 *     run, or one that may restart its server, must know every request open), the line is
 *     noted in the pump's Ledger first, and goes to Python whenever the ledger cannot take it.
 * A line longer than one read is held here while it is shorter than stream_threshold, or, for a
 * guarded direction or one whose lines are only counted, than max_held (the Python relay holds
 * those lines whole too). A line only counted is scanned as its reads arrive (so that its end
 * finds it scanned but for the last read) and goes to Python, whole so far, the moment the
 * scan is not sure of it or a pattern shows in it. Past that, a
 * line that may stream (not guarded, no pattern in it so far) is streamed here as LineRelay
 * would: written as it arrives, watched for a pattern across reads; the moment something about
 * it needs thought (a pattern, the direction becoming guarded) the relay adopts the stream
 * (adopt_stream) and takes the chunk, and a line streamed to its end is reported to it
 * (stream_ended) so that what waited for it goes out. Any other long line goes to Python.
 *
 * Ledger(methods, answered_kept, max_entries, max_bytes, max_line, elided_over)
 *     One run's record of the lines its pumps relayed that Python only counts (bridge/run/
 *     noted.py takes it, in order, whenever the loop counts). Each line is scanned whole, as
 *     strict JSON, for its top-level "id", "method", "result" and "error"; a line the scan is
 *     not sure of (not one object, a member twice or named with an escape, an id that is not an
 *     integer nor a string without escapes, a method with an escape, one of *methods*: those
 *     that count for more than a request open) goes to Python as before. A request of the host
 *     and the server's answer to it stay as one pair (the last *answered_kept*; older pairs
 *     change nothing Python keeps), a request of the server and the host's answer cancel out,
 *     a notification is not kept; anything else is kept as its record: the line itself, but
 *     for the text of each string below the params' own members (a tool's arguments, a
 *     result's content) longer than *elided_over* characters, which becomes "" (Python's
 *     core/log/denials.py says how long: LONGEST_NAMING, more than any path; nothing Python
 *     counts reads such a string). Records are kept up to max_entries and max_bytes (a record
 *     longer than max_line, or one past those, goes to Python as the line, which takes what is
 *     here first). Nothing is decided here: Python counts what it takes as it counts a line
 *     it read itself.
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

/* bridge/protocol/lenient_reading.py, disguised(): an escape that could stand for a letter, or a
 * NUL byte. */
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

/* What a line tells of the requests open, read by a strict scan of the line as JSON, so that a
 * line this scan takes is one Python's reader takes too, with the same members. The scan goes
 * as the line comes: fed what has arrived so far (scan_more), it stops before a token it cannot
 * finish yet and goes on from there after the next read, so that a long line held across reads
 * is scanned while the rest of it is on its way, once, and not again whole at its end.
 *
 * The record of a line (what the ledger keeps for Python to count) is the line without the text
 * of its long strings nested below params' own members (the blob of a tool's arguments, the
 * text of a result): such a string names no path (core/log/denials.py, named_by, is told the
 * same bound) and nothing else Python counts reads it, so Python reads a few hundred bytes
 * where the line was a megabyte. */

#define MAX_DEPTH 64     /* deeper than this, Python reads the line (its reader has a limit too) */
#define MAX_ELIDED 64    /* long strings one record leaves out; more, and Python reads the line */
#define LONGEST_NUMBER 4096 /* a number still unfinished past this many bytes is Python's */

enum { S_OPEN, S_FIRST_KEY, S_KEY, S_COLON, S_FIRST_VALUE, S_VALUE, S_AFTER, S_STRING, S_END };
enum { M_OTHER, M_ID, M_METHOD };

typedef struct {
    /* the facts, as offsets in the line: the id as written (a string with its quotes), the
     * method's text */
    size_t id, id_len, method, method_len;
    int has_id, has_method, has_result, has_error;
    /* the texts the record leaves out, [start, end) between their quotes */
    size_t elided[MAX_ELIDED][2];
    int n_elided, too_many;
    size_t elided_bytes;
    size_t elide_over; /* a nested string longer than this, in characters at least (0: none) */
    /* where the scan is: the next byte, what is expected there, the containers open */
    size_t pos;
    int state, depth, member;
    unsigned char object[MAX_DEPTH + 1]; /* per depth: 1 an object, 0 an array */
    /* the string under way: its opening quote, raw bytes beyond one per character (at least),
     * a name or a value, an escape in it */
    size_t str_start, str_shrink;
    int str_key, str_escaped;
} Scan;

static void scan_start(Scan *sc, size_t elide_over) {
    sc->has_id = sc->has_method = sc->has_result = sc->has_error = 0;
    sc->id = sc->id_len = sc->method = sc->method_len = 0;
    sc->n_elided = sc->too_many = 0;
    sc->elided_bytes = 0;
    sc->elide_over = elide_over;
    sc->pos = 0;
    sc->state = S_OPEN;
    sc->depth = 0;
    sc->member = M_OTHER;
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static int hexdigit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Goes on with the string under way from s[*i] (after its opening quote, or where the last call
 * stopped): 1 it ended (*i after its closing quote), -1 its end has not arrived yet (*i where to
 * go on), 0 it is not a string Python's strict reading takes (or it is not UTF-8). */
static int string_more(Scan *sc, const char *s, size_t n, size_t *i) {
    size_t k = *i;
    for (;;) {
        /* eight plain bytes at a time: no quote, backslash, control character nor non-ASCII */
        while (k + 8 <= n) {
            unsigned long long w, q, b;
            memcpy(&w, s + k, 8);
            q = w ^ (ONES * '"');
            b = w ^ (ONES * '\\');
            if ((((q - ONES) & ~q) | ((b - ONES) & ~b) | ((w - ONES * 0x20) & ~w) | w) & HIGHS)
                break;
            k += 8;
        }
        if (k >= n) break;
        unsigned char c = (unsigned char)s[k];
        if (c == '"') {
            *i = k + 1;
            return 1;
        }
        if (c == '\\') {
            if (k + 1 >= n) break;
            char e = s[k + 1];
            sc->str_escaped = 1;
            if (e == 'u') {
                if (k + 5 >= n) break;
                if (!hexdigit(s[k + 2]) || !hexdigit(s[k + 3]) || !hexdigit(s[k + 4]) ||
                    !hexdigit(s[k + 5]))
                    return 0;
                sc->str_shrink += 6; /* half of a pair, perhaps: counted as no character */
                k += 6;
                continue;
            }
            if (e == 0 || !strchr("\"\\/bfnrt", e)) return 0;
            sc->str_shrink += 1;
            k += 2;
            continue;
        }
        if (c < 0x20) return 0;
        if (c < 0x80) {
            k++;
            continue;
        }
        /* UTF-8 as Python's strict decoder takes it (as is_utf8) */
        size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                     : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (len == 0) return 0;
        if (k + len > n) break;
        unsigned char c1 = (unsigned char)s[k + 1];
        for (size_t j = 1; j < len; j++)
            if (((unsigned char)s[k + j] & 0xC0) != 0x80) return 0;
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
            (c == 0xF4 && c1 >= 0x90))
            return 0; /* overlong, a surrogate, past U+10FFFF */
        sc->str_shrink += len - 1;
        k += len;
    }
    *i = k;
    return -1;
}

/* A number s[k:e], strictly; *integer when it is -?(0|[1-9][0-9]*) alone. */
static int number_is(const char *s, size_t k, size_t e, int *integer) {
    *integer = 1;
    if (k < e && s[k] == '-') k++;
    if (k >= e) return 0;
    if (s[k] == '0') {
        k++;
    } else if (s[k] >= '1' && s[k] <= '9') {
        while (k < e && s[k] >= '0' && s[k] <= '9') k++;
    } else {
        return 0;
    }
    if (k < e && s[k] == '.') {
        *integer = 0;
        k++;
        if (k >= e || s[k] < '0' || s[k] > '9') return 0;
        while (k < e && s[k] >= '0' && s[k] <= '9') k++;
    }
    if (k < e && (s[k] == 'e' || s[k] == 'E')) {
        *integer = 0;
        k++;
        if (k < e && (s[k] == '+' || s[k] == '-')) k++;
        if (k >= e || s[k] < '0' || s[k] > '9') return 0;
        while (k < e && s[k] >= '0' && s[k] <= '9') k++;
    }
    return k == e;
}

static int is_number_byte(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static int key_is(const char *k, size_t len, const char *name) {
    return strlen(name) == len && memcmp(k, name, len) == 0;
}

/* The string that began at sc->str_start ended before s[end]. 1, or 0 for a line Python reads. */
static int string_done(Scan *sc, const char *s, size_t end) {
    size_t text = sc->str_start + 1, len = end - 1 - text;
    if (sc->str_key) {
        sc->state = S_COLON;
        if (sc->depth != 1) return 1;
        if (sc->str_escaped) return 0; /* a name that may spell one of ours in disguise */
        const char *k = s + text;
        int *seen = NULL;
        sc->member = M_OTHER;
        if (key_is(k, len, "id")) {
            sc->member = M_ID;
            seen = &sc->has_id;
        } else if (key_is(k, len, "method")) {
            sc->member = M_METHOD;
            seen = &sc->has_method;
        } else if (key_is(k, len, "result")) {
            seen = &sc->has_result;
        } else if (key_is(k, len, "error")) {
            seen = &sc->has_error;
        }
        if (seen != NULL) {
            if (*seen) return 0; /* a member twice */
            *seen = 1;
        }
        return 1;
    }
    sc->state = S_AFTER;
    if (sc->depth == 1) {
        if (sc->member == M_ID) {
            if (sc->str_escaped) return 0;
            sc->id = sc->str_start;
            sc->id_len = end - sc->str_start;
        } else if (sc->member == M_METHOD) {
            if (sc->str_escaped) return 0;
            sc->method = text;
            sc->method_len = len;
        }
    } else if (sc->depth >= 3 && sc->elide_over > 0 && len > sc->str_shrink &&
               len - sc->str_shrink > sc->elide_over) {
        if (sc->n_elided == MAX_ELIDED) {
            sc->too_many = 1;
        } else {
            sc->elided[sc->n_elided][0] = text;
            sc->elided[sc->n_elided][1] = end - 1;
            sc->n_elided++;
            sc->elided_bytes += len;
        }
    }
    return 1;
}

/* A value at s[*i] (not white space). 1 taken (or begun: a string, a container), -1 it cannot
 * be finished before more arrives, 0 a line Python reads. */
static int scan_value(Scan *sc, const char *s, size_t n, size_t *i, int final) {
    char c = s[*i];
    int top = sc->depth == 1;
    if (top && sc->member == M_METHOD && c != '"') return 0;
    if (top && sc->member == M_ID && c != '"' && c != '-' && !(c >= '0' && c <= '9'))
        return 0; /* null, true, an object: Python's */
    if (c == '"') {
        sc->state = S_STRING;
        sc->str_start = *i;
        sc->str_key = 0;
        sc->str_escaped = 0;
        sc->str_shrink = 0;
        (*i)++;
        return 1;
    }
    if (c == '{' || c == '[') {
        if (sc->depth >= MAX_DEPTH) return 0;
        sc->depth++;
        sc->object[sc->depth] = c == '{';
        sc->state = c == '{' ? S_FIRST_KEY : S_FIRST_VALUE;
        (*i)++;
        return 1;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        size_t e = *i;
        int integer;
        while (e < n && is_number_byte(s[e])) e++;
        if (e == n && !final) return e - *i > LONGEST_NUMBER ? 0 : -1;
        if (!number_is(s, *i, e, &integer)) return 0;
        if (top && sc->member == M_ID) {
            if (!integer) return 0;
            sc->id = *i;
            sc->id_len = e - *i;
        }
        *i = e;
        sc->state = S_AFTER;
        return 1;
    }
    if (c == 't' || c == 'f' || c == 'n') {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t len = strlen(word), have = n - *i;
        if (have < len) return !final && memcmp(s + *i, word, have) == 0 ? -1 : 0;
        if (memcmp(s + *i, word, len) != 0) return 0;
        *i += len;
        sc->state = S_AFTER;
        return 1;
    }
    return 0;
}

/* Scans s[sc->pos:n], the line so far (*final*: all of it, without its ending). 1 nothing
 * wrong so far (with *final*: the line is one JSON object this scan is sure of), 0 a line
 * Python reads. */
static int scan_more(Scan *sc, const char *s, size_t n, int final) {
    size_t i = sc->pos;
    if (sc->state == S_OPEN) {
        if (n == 0) return !final;
        if (s[0] != '{') return 0;
        sc->depth = 1;
        sc->object[1] = 1;
        sc->state = S_FIRST_KEY;
        i = 1;
    }
    while (i < n) {
        if (sc->state == S_STRING) {
            int r = string_more(sc, s, n, &i);
            if (r == 0) return 0;
            if (r < 0) break;
            if (!string_done(sc, s, i)) return 0;
            continue;
        }
        char c = s[i];
        if (is_ws(c)) {
            i++;
            continue;
        }
        int r;
        switch (sc->state) {
        case S_FIRST_KEY:
            if (c == '}') goto close;
            /* fall through */
        case S_KEY:
            if (c != '"') return 0;
            sc->state = S_STRING;
            sc->str_start = i;
            sc->str_key = 1;
            sc->str_escaped = 0;
            sc->str_shrink = 0;
            i++;
            break;
        case S_COLON:
            if (c != ':') return 0;
            sc->state = S_VALUE;
            i++;
            break;
        case S_FIRST_VALUE:
            if (c == ']') goto close;
            /* fall through */
        case S_VALUE:
            r = scan_value(sc, s, n, &i, final);
            if (r == 0) return 0;
            if (r < 0) goto wait;
            break;
        case S_AFTER:
            if (c == ',') {
                sc->state = sc->object[sc->depth] ? S_KEY : S_VALUE;
                i++;
                break;
            }
            if (c != (sc->object[sc->depth] ? '}' : ']')) return 0;
        close:
            i++;
            sc->depth--;
            sc->state = sc->depth == 0 ? S_END : S_AFTER;
            break;
        default: /* S_END: only white space after the object */
            return 0;
        }
    }
wait:
    sc->pos = i;
    return final ? sc->state == S_END : 1;
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
    size_t elide_over; /* a record leaves out the text of nested strings longer than this */
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
    static char *kwlist[] = {"methods",  "answered_kept", "max_entries", "max_bytes",
                             "max_line", "elided_over",   NULL};
    PyObject *methods;
    Py_ssize_t kept = 64, max_entries = 4096, max_bytes = 4 << 20, max_line = 64 << 10;
    Py_ssize_t elided_over = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!|nnnnn", kwlist, &PyTuple_Type, &methods,
                                     &kept, &max_entries, &max_bytes, &max_line, &elided_over))
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(methods); i++) {
        if (!PyBytes_Check(PyTuple_GET_ITEM(methods, i))) {
            PyErr_SetString(PyExc_TypeError, "methods must be bytes");
            return -1;
        }
    }
    if (kept <= 0 || max_entries <= 0 || max_bytes <= 0 || max_line <= 0 || elided_over < 0) {
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
    self->elide_over = (size_t)elided_over;
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

static int lasting(Ledger *self, const char *method, size_t len) {
    PyObject *m = self->methods;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(m); i++) {
        PyObject *b = PyTuple_GET_ITEM(m, i);
        if ((size_t)PyBytes_GET_SIZE(b) == len && memcmp(PyBytes_AS_STRING(b), method, len) == 0)
            return 1;
    }
    return 0;
}

/* The record of the line s[0:n] as *sc* scanned it: the line without the texts it leaves out,
 * in *out* (n - sc->elided_bytes long); where its id is now. */
static size_t copy_record(const Scan *sc, const char *s, size_t n, char *out) {
    size_t from = 0, to = 0, id = sc->id;
    for (int k = 0; k < sc->n_elided; k++) {
        size_t start = sc->elided[k][0], end = sc->elided[k][1];
        memcpy(out + to, s + from, start - from);
        to += start - from;
        from = end;
        if (start < sc->id) id -= end - start;
    }
    memcpy(out + to, s + from, n - from);
    return id;
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
 * the server, in a pump whose triage was asked in *asked_in*; *sc*: the line scanned whole (NULL:
 * not one this scan is sure of). Without the interpreter lock. 1: noted (or nothing to note), the
 * pump relays it; 0: Python must have it (a line it reads itself, the ledger full, or the lookout
 * changed since it was asked); -1 out of memory. */
static int ledger_enter(Ledger *self, int from_host, const char *s, size_t n, const Scan *sc,
                        long asked_in) {
    int request = 0, answer = 0, has_method = 0;
    if (sc != NULL) {
        has_method = sc->has_method;
        request = sc->has_id && has_method;
        answer = sc->has_id && !has_method && (sc->has_result || sc->has_error);
    }
    if (sc == NULL || (has_method && lasting(self, s + sc->method, sc->method_len)) ||
        (!request && !answer && !(has_method && !sc->has_id))) {
        __atomic_add_fetch(&self->handed, 1, __ATOMIC_RELAXED);
        return 0; /* Python reads it */
    }
    const char *id_at = s + sc->id;
    size_t id_len = sc->id_len, kept = n - sc->elided_bytes;
    int rc = 1;
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    if (__atomic_load_n(&epoch, __ATOMIC_SEQ_CST) != asked_in) {
        rc = 0; /* something changed what is looked for: Python decides this line */
    } else if (!sc->has_id) {
        /* a notification that is none of the methods Python reads: nothing to count */
    } else if (self->entries + 2 > self->max_entries || self->bytes + kept > self->max_bytes) {
        rc = 0; /* Python counts what is here, then this line */
    } else {
        unsigned h = hash_id(id_at, id_len);
        /* an answer to a request noted here and not taken yet: host answers close the
         * server's requests, the server's answers the host's */
        Entry *asked = answer ? find_open(self, !from_host, id_at, id_len, h) : NULL;
        if (asked != NULL && !from_host) {
            Entry *e = append(self, 0, wall_now());
            char *id = e != NULL ? malloc(id_len) : NULL;
            if (id == NULL) {
                if (e) unlink_entry(self, e);
                rc = -1;
            } else {
                memcpy(id, id_at, id_len);
                e->id = id;
                e->id_len = id_len;
                self->bytes += id_len;
                e->request = asked;
                asked->answer = e;
                asked->answered = 1;
                unmap(self, asked);
                keep_answered(self, asked);
            }
        } else if (request && find_open(self, from_host, id_at, id_len, h) != NULL) {
            rc = 0; /* an id already open: Python counts both as it always has */
        } else if (asked != NULL) {
            /* the host answered the server's request: together they count for nothing */
            unmap(self, asked);
            unlink_entry(self, asked);
        } else if (sc->too_many || kept > self->max_line) {
            rc = 0; /* a record too long to keep: Python reads the line */
        } else {
            Entry *e = append(self, from_host, wall_now());
            char *line = e != NULL ? malloc(kept) : NULL;
            if (line == NULL) {
                if (e) unlink_entry(self, e);
                rc = -1;
            } else {
                size_t id = copy_record(sc, s, n, line);
                e->line = line;
                e->len = kept;
                self->bytes += kept;
                if (request) {
                    e->id = line + id;
                    e->id_len = id_len;
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

/* ledger_enter for a line read in one piece: scanned here, whole. */
static int ledger_note(Ledger *self, int from_host, const char *s, size_t n, long asked_in) {
    size_t body = n - 1;
    if (body > 0 && s[body - 1] == '\r') body--;
    Scan sc;
    scan_start(&sc, self->elide_over);
    return ledger_enter(self, from_host, s, n, scan_more(&sc, s, body, 1) ? &sc : NULL, asked_in);
}

static PyObject *Ledger_note(Ledger *self, PyObject *args) {
    int from_host;
    Py_buffer line;
    if (!PyArg_ParseTuple(args, "py*", &from_host, &line)) return NULL;
    const char *s = line.buf;
    size_t n = (size_t)line.len;
    int rc = 0;
    if (n > 0 && s[n - 1] == '\n') {
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
     "Everything noted, in order, emptied: (from_host, line, at, None) for a line (its record: "
     "long nested strings emptied), (False, None, at, id) for the server's answer, id as "
     "written, to a host request noted before it."},
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
    /* a line only counted, held across reads: scanned as it comes (scanning), looked at for a
     * pattern up to *looked*, with what triage() said in *looked_in* */
    Scan scan;
    int scanning;
    size_t looked;
    long looked_in;
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
    self->scanning = 0;
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
    self->scanning = 0;
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

/* The line only counted held so far, after a read added to it: scanned on from where the last
 * read left it, and looked at for a pattern (the bytes before it too, for one cut in two). 1
 * nothing needs thought yet; 0 Python must have the line (without the interpreter lock). */
static int follow(FastPump *self, int final) {
    const char *line = self->held;
    size_t len = self->held_len;
    if (final) { /* the scan ends before the line's ending */
        len--;
        if (len > 0 && line[len - 1] == '\r') len--;
    }
    if (!scan_more(&self->scan, line, len, final)) return 0;
    if (self->looked_in != self->asked_in) { /* other patterns now: the whole line again */
        self->looked = 0;
        self->looked_in = self->asked_in;
    }
    size_t from = self->looked > TAIL ? self->looked - TAIL : 0;
    if (mentions(self->patterns, line + from, self->held_len - from)) return 0;
    from = self->looked > 0 ? self->looked - 1 : 0; /* a backslash that ended the last read */
    if (self->guarded && disguised(line + from, self->held_len - from)) return 0;
    self->looked = self->held_len;
    return 1;
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
            size_t total = self->held_len + n;
            if (self->counted) {
                /* a line only counted is held whole, as the relay in Python holds it, and
                 * scanned as it comes: Python has it the moment something needs thought */
                int fresh = self->held_len == 0;
                if (total <= self->max_held && (fresh || self->scanning)) {
                    if (hold(self, data, n) < 0) {
                        take(self);
                        return PyErr_NoMemory();
                    }
                    if (fresh) {
                        scan_start(&self->scan, self->ledger->elide_over);
                        self->scanning = 1;
                        self->looked = 0;
                        self->looked_in = self->asked_in;
                    }
                    if (follow(self, 0)) continue;
                    take(self);
                    return give(self, data, 0);
                }
                take(self);
                return give(self, data, n);
            }
            /* a line that goes on: held while short, or, guarded, while Python would hold it */
            if (total < self->stream_threshold || (self->guarded && total <= self->max_held)) {
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
        int scanned = 0;
        if (self->held_len) {
            if (self->counted && !self->scanning) { /* held before it was only counted */
                take(self);
                return give(self, data, n);
            }
            scanned = self->counted;
            if (hold(self, data, n) < 0) {
                take(self);
                return PyErr_NoMemory();
            }
            line = self->held;
            len = self->held_len;
        }
        int rc = 0;
        if (scanned) { /* scanned as it came: the rest of it now, and noted */
            if (json_shaped(line, len) && follow(self, 1) &&
                ledger_enter(self->ledger, self->from_host, line, len, &self->scan,
                             self->asked_in) > 0)
                rc = write_gated(self->gate, line, len, 1, 0);
        } else if (json_shaped(line, len) && is_utf8((const unsigned char *)line, len) &&
                   !mentions(self->patterns, line, len) &&
                   !(self->guarded && disguised(line, len - 1)) &&
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
