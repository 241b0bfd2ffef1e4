/*
 * The observer's hot path in C: answer, without the interpreter, the observed calls that Landlock
 * provably allows, and hand every other one to the Python observer.
 *
 * The supervisor (roots_manager.sandbox.supervisor) waits here instead of in select.poll: one
 * FastObserver(listener, on, beneath, handled, open_nr, openat_nr, observed, floor, writes,
 * execve_nr, execveat_nr) per confined server, built by roots_manager.sandbox.observer.fast_path
 * from the Observer's own rights tables.
 * serve(fds, timeout_ms) polls the seccomp listener and the supervisor's other descriptors without
 * the interpreter lock and, in a loop, receives each notification and answers it
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE itself when decide() says Landlock allows it. It returns to
 * Python with:
 *   - ([], raw): a notification (struct seccomp_notif, bytes) Python must answer,
 *     exactly as if it had received it itself (notified_calls.NotifiedCalls.answer);
 *   - ([(fd, revents), ...], None): another descriptor is ready, or the listener is hung up;
 *   - ([], None): the timeout passed, or a signal came.
 *
 * decide() lets a call through untold only where observer.Observer.judge finds no refusal, by
 * the same steps, and otherwise hands it on (Python judges it as it always has, tells it if
 * refused, and lets it go on; so this path changes no outcome, and a mistake here could at worst
 * hide a refusal: Landlock decides every call):
 *   - it is open or openat, without O_CREAT and O_TRUNC (with O_PATH: let through at once, as the
 *     Python observer does, for no right is needed to hold a path; so is an access mode of 3);
 *     with writes set (the supervisor opens every file opened to write), it opens to read; or it
 *     is execve or execveat (where their numbers were given);
 *   - its path is read whole from the caller with process_vm_readv, a page at a time, not empty,
 *     not under /proc/self/ or /proc/thread-self/ (the caller's, which Python renames);
 *   - a relative path is joined to /proc/TID/cwd or /proc/TID/fd/N, which reads as an absolute
 *     path; the result does not open with exactly two slashes (which POSIX keeps);
 *   - judged by the names first: the normalised path (os.path.normpath's: "." and "" dropped,
 *     ".." takes a name away), or, when it is a link the call follows, the path it leads to
 *     (realpath(3)); then, if that finds a refusal, on the path the kernel reaches (realpath(3)
 *     of the joined path, or of its folder when the last link is not followed: a folder on the
 *     way that is a link, such as /lib to usr/lib). A path that does not resolve, or resolves
 *     into /proc, is Python's;
 *   - an open: the rights Python would ask of it (read: read_file and read_dir; write:
 *     write_file) are all allowed, or, looked at, it is not there, or it is a folder whose
 *     listing is allowed, or a file whose reading or writing is; an execve: it is not a
 *     regular file (not Landlock's refusal), or execute is allowed on it. Allowed means by a
 *     rule on the path itself, or a folder rule on "/" or on a folder above it, or not handled
 *     by the ruleset: the Observer's tables, `on`, `beneath` and `handled`, copied here once.
 * With floor set (benchmarks only: ROOTS_MANAGER_BENCH_OBSERVER_FLOOR), every observed call is
 * let through unjudged: what receiving and answering alone costs. Nothing is told then.
 *
 * Linux only; where it is not built, or ROOTS_MANAGER_PURE_OBSERVER is set, the Python observer
 * judges every call.
 */
#define PY_SSIZE_T_CLEAN
#define _GNU_SOURCE
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* the Python observer's constants (observer.py), not <fcntl.h>'s: its decisions are the ones
   matched */
#define OB_AT_FDCWD (-100)
#define OB_O_ACCMODE 03
#define OB_O_CREAT 0100
#define OB_O_TRUNC 01000
#define OB_O_NOFOLLOW 0400000
#define OB_O_PATH 010000000
#define OB_PATH_MAX 4096
#define READ_FILE (1u << 2)
#define WRITE_FILE (1u << 1)
#define READ_DIR (1u << 3)
#define EXECUTE (1u << 0)
#define OB_AT_SYMLINK_NOFOLLOW 0x100

/* notified_calls.py's: struct seccomp_notif and seccomp_notif_resp, and the ioctls */
#define NOTIF_RECV 0xC0502100UL
#define NOTIF_SEND 0xC0182101UL
#define FLAG_CONTINUE 1u
#define MAX_FDS 8

struct notif {
    uint64_t id;
    uint32_t pid;
    uint32_t flags;
    int32_t nr;
    uint32_t arch;
    uint64_t ip;
    uint64_t args[6];
};

struct notif_resp {
    uint64_t id;
    int64_t val;
    int32_t error;
    uint32_t flags;
};

/* ---- a table of paths and their rights ------------------------------------------------------ */

typedef struct {
    char *key; /* NULL: empty slot */
    size_t len;
    uint64_t rights;
} Slot;

typedef struct {
    Slot *slots;
    size_t mask; /* capacity - 1, a power of two */
} Table;

static uint64_t hash(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static void table_free(Table *t) {
    if (t->slots == NULL) return;
    for (size_t i = 0; i <= t->mask; i++) free(t->slots[i].key);
    free(t->slots);
    t->slots = NULL;
}

/* The rights of a Python dict {bytes: int}, copied; -1 with an exception set. */
static int table_fill(Table *t, PyObject *dict) {
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "the rights tables are dicts of bytes to int");
        return -1;
    }
    size_t cap = 16;
    while (cap < (size_t)PyDict_Size(dict) * 2 + 2) cap <<= 1;
    t->slots = calloc(cap, sizeof(Slot));
    if (t->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    t->mask = cap - 1;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        char *s;
        Py_ssize_t n;
        if (!PyBytes_Check(key) || PyBytes_AsStringAndSize(key, &s, &n) < 0) {
            PyErr_SetString(PyExc_TypeError, "the rights tables' paths are bytes");
            return -1;
        }
        uint64_t rights = PyLong_AsUnsignedLongLongMask(value);
        if (rights == (uint64_t)-1 && PyErr_Occurred()) return -1;
        size_t i = hash(s, (size_t)n) & t->mask;
        while (t->slots[i].key != NULL) i = (i + 1) & t->mask; /* keys of a dict are unique */
        t->slots[i].key = malloc((size_t)n + 1);
        if (t->slots[i].key == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(t->slots[i].key, s, (size_t)n);
        t->slots[i].key[n] = 0;
        t->slots[i].len = (size_t)n;
        t->slots[i].rights = rights;
    }
    return 0;
}

static uint64_t table_get(const Table *t, const char *s, size_t n) {
    size_t i = hash(s, n) & t->mask;
    while (t->slots[i].key != NULL) {
        if (t->slots[i].len == n && memcmp(t->slots[i].key, s, n) == 0) return t->slots[i].rights;
        i = (i + 1) & t->mask;
    }
    return 0;
}

/* ---- FastObserver --------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int listener;
    int open_nr;   /* -1 where the architecture has no open(2) */
    int openat_nr;
    int execve_nr; /* -1: not given (an older caller): Python judges each */
    int execveat_nr;
    int floor;
    int writes; /* the supervisor makes the opens that write: every one is handed on */
    uint64_t handled;
    uint64_t root; /* beneath["/"]: above every path */
    Table on, beneath;
    int *observed; /* the call numbers only observed (floor lets them all through) */
    Py_ssize_t n_observed;
    char last_folder[OB_PATH_MAX + 1]; /* the folder last judged, and the rights of the folder */
    size_t last_len;                   /* rules on and above it: a walk asks 100 times of each */
    uint64_t last_above;
    int have_last;
    unsigned long long passed; /* let through here */
    unsigned long long handed; /* handed to Python */
} FastObserver;

static void FastObserver_dealloc(FastObserver *self) {
    table_free(&self->on);
    table_free(&self->beneath);
    free(self->observed);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int FastObserver_init(FastObserver *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"listener", "on",        "beneath",     "handled",
                             "open_nr",  "openat_nr", "observed",    "floor",
                             "writes",   "execve_nr", "execveat_nr", NULL};
    PyObject *on, *beneath, *observed;
    unsigned long long handled;
    int floor = 0, writes = 0;
    self->execve_nr = self->execveat_nr = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO!O!KiiO|ppii", kwlist, &self->listener,
                                     &PyDict_Type, &on, &PyDict_Type, &beneath, &handled,
                                     &self->open_nr, &self->openat_nr, &observed, &floor,
                                     &writes, &self->execve_nr, &self->execveat_nr))
        return -1;
    self->writes = writes;
    if (self->on.slots != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a FastObserver is made once");
        return -1;
    }
    self->handled = handled;
    self->floor = floor;
    if (table_fill(&self->on, on) < 0 || table_fill(&self->beneath, beneath) < 0) return -1;
    self->root = table_get(&self->beneath, "/", 1);
    PyObject *seq = PySequence_Fast(observed, "observed is a sequence of call numbers");
    if (seq == NULL) return -1;
    self->n_observed = PySequence_Fast_GET_SIZE(seq);
    self->observed = calloc((size_t)self->n_observed + 1, sizeof(int));
    if (self->observed == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->n_observed; i++) {
        long nr = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (nr == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        self->observed[i] = (int)nr;
    }
    Py_DECREF(seq);
    return 0;
}

/* The NUL-ended string at address in process tid, read a page at a time so that no read crosses
   into a mapping that is not there (as observer._string); its length, or -1. */
static ssize_t read_path(pid_t tid, uint64_t address, char *out) {
    if (address == 0 || address >= (1ULL << 63)) return -1;
    size_t have = 0;
    while (have < OB_PATH_MAX) {
        size_t size = 4096 - (size_t)((address + have) % 4096);
        if (have == 0 && size > 256) size = 256; /* most paths are short: copy no whole page */
        if (size > OB_PATH_MAX - have) size = OB_PATH_MAX - have;
        struct iovec local = {out + have, size};
        struct iovec remote = {(void *)(uintptr_t)(address + have), size};
        ssize_t got = process_vm_readv(tid, &local, 1, &remote, 1, 0);
        if (got <= 0) return -1;
        char *end = memchr(out + have, 0, (size_t)got);
        if (end != NULL) return end - out;
        if ((size_t)got < size) return -1;
        have += (size_t)got;
    }
    return -1; /* too long: Python's to say so */
}

/* os.path.normpath of an absolute path (not opening with exactly two slashes), in place into out;
   its length, or -1 if too long. */
static ssize_t normalise(const char *path, size_t n, char *out, size_t room) {
    size_t o = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && path[i] == '/') i++;
        size_t start = i;
        while (i < n && path[i] != '/') i++;
        size_t len = i - start;
        if (len == 0 || (len == 1 && path[start] == '.')) continue;
        if (len == 2 && path[start] == '.' && path[start + 1] == '.') {
            while (o > 0 && out[o - 1] != '/') o--; /* the name, then its slash */
            if (o > 0) o--;
            continue;
        }
        if (o + 1 + len >= room) return -1;
        out[o++] = '/';
        memcpy(out + o, path + start, len);
        o += len;
    }
    if (o == 0) out[o++] = '/';
    out[o] = 0;
    return (ssize_t)o;
}

/* The rights of the folder rules on "/" and on every folder above path (path normalised). */
static uint64_t above(FastObserver *self, const char *path, size_t n) {
    size_t folder = n;
    while (folder > 0 && path[folder - 1] != '/') folder--;
    if (folder > 1) folder--; /* the folder's length, without its final slash ("/" stays 1) */
    if (self->have_last && self->last_len == folder && memcmp(self->last_folder, path, folder) == 0)
        return self->last_above;
    uint64_t rights = self->root;
    for (size_t i = 1; i <= folder; i++)
        if (i == folder || path[i] == '/') rights |= table_get(&self->beneath, path, i);
    if (folder > OB_PATH_MAX) return rights; /* too long to remember (a relative path joined) */
    memcpy(self->last_folder, path, folder);
    self->last_len = folder;
    self->last_above = rights;
    self->have_last = 1;
    return rights;
}

/* The rights Landlock allows on path (normalised): its own rule's and its folders'. */
static uint64_t allowed_on(FastObserver *self, const char *path, size_t n) {
    return table_get(&self->on, path, n) | above(self, path, n);
}

/* observer._open of an open that neither makes nor empties a file, on path (normalised):
   1 when it finds no refusal (untold), 0 when it finds one. */
static int open_ok(FastObserver *self, const char *path, size_t n, int mode) {
    uint64_t access = mode == 0 ? READ_FILE : mode == 1 ? WRITE_FILE : READ_FILE | WRITE_FILE;
    uint64_t needs = access | (mode == 0 ? READ_DIR : 0);
    uint64_t allowed = allowed_on(self, path, n);
    if ((needs & self->handled & ~allowed) == 0) return 1; /* a file or a folder: no look */
    struct stat st;
    if (stat(path, &st) < 0) return 1; /* not there (or unreachable): not Landlock's refusal */
    needs = S_ISDIR(st.st_mode) ? (mode != 1 ? READ_DIR : 0) : access;
    return (needs & self->handled & ~allowed) == 0;
}

/* observer._judge of execve on path (normalised): 1 when it finds no refusal. */
static int exec_ok(FastObserver *self, const char *path, size_t n) {
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) return 1; /* not a program to run */
    return (EXECUTE & self->handled & ~allowed_on(self, path, n)) == 0;
}

/* The path the kernel reaches, as observer._path finds it with real: realpath(3) of whole
   (absolute), or, not following its last link, of its folder with its last name put back (as
   os.path.split and os.path.join do); into out (2 * OB_PATH_MAX + 2 bytes), its length, or -1
   when it does not resolve (a name missing on the way: Python's to judge) or leads into /proc
   (which Python names the caller's). */
static ssize_t real_path(const char *whole, size_t n, int follow, char *out) {
    char buf[OB_PATH_MAX + 1];
    if (n == 0 || n > OB_PATH_MAX) return -1;
    memcpy(buf, whole, n);
    buf[n] = 0;
    size_t o;
    if (follow) {
        if (realpath(buf, out) == NULL) return -1;
        o = strlen(out);
    } else {
        size_t end = n;
        while (end > 1 && buf[end - 1] == '/') end--; /* raw.rstrip("/") or "/" */
        buf[end] = 0;
        size_t cut = end;
        while (cut > 0 && buf[cut - 1] != '/') cut--;
        if (cut == 0) return -1; /* not absolute: never joined so */
        char tail[OB_PATH_MAX + 1];
        size_t tail_len = end - cut;
        memcpy(tail, buf + cut, tail_len + 1);
        size_t head = cut;
        int slashes = 1;
        for (size_t i = 0; i < head; i++) slashes &= buf[i] == '/';
        if (!slashes)
            while (head > 1 && buf[head - 1] == '/') head--;
        buf[head] = 0;
        if (realpath(buf, out) == NULL) return -1;
        o = strlen(out);
        if (tail_len > 0) {
            if (o + 1 + tail_len > 2 * OB_PATH_MAX) return -1;
            if (!(o == 1 && out[0] == '/')) out[o++] = '/';
            memcpy(out + o, tail, tail_len + 1);
            o += tail_len;
        }
    }
    if (o >= 6 && memcmp(out, "/proc/", 6) == 0) return -1;
    return (ssize_t)o;
}

/* 1: Landlock allows this call, as the Python observer would find (untold): judged by the
   names first, then, where they are refused, on the path the kernel reaches (a folder on the
   way that is a link: /lib to usr/lib); 0: Python must judge it. */
static int decide(FastObserver *self, pid_t tid, int nr, const uint64_t *a) {
    int dirfd;
    uint64_t address;
    int flags = 0, exec = 0, follow = 1;
    if (nr == self->openat_nr) {
        dirfd = (int)(uint32_t)a[0];
        address = a[1];
        flags = (int)(uint32_t)a[2];
    } else if (nr == self->open_nr && self->open_nr >= 0) {
        dirfd = OB_AT_FDCWD;
        address = a[0];
        flags = (int)(uint32_t)a[1];
    } else if (nr == self->execve_nr && self->execve_nr >= 0) {
        dirfd = OB_AT_FDCWD;
        address = a[0];
        exec = 1;
    } else if (nr == self->execveat_nr && self->execveat_nr >= 0) {
        dirfd = (int)(uint32_t)a[0];
        address = a[1];
        exec = 1;
        follow = !((int)(uint32_t)a[4] & OB_AT_SYMLINK_NOFOLLOW);
    } else {
        return 0;
    }
    int mode = flags & OB_O_ACCMODE;
    if (!exec) {
        if (flags & OB_O_PATH) return 1; /* no right is needed to hold a path */
        if (flags & (OB_O_CREAT | OB_O_TRUNC)) return 0;
        if (self->writes && mode != 0) return 0; /* the supervisor opens it, or keeps it */
        if (mode == 3) return 1;                 /* nothing is asked */
        follow = !(flags & OB_O_NOFOLLOW);
    }
    char raw[2 * OB_PATH_MAX + 2];
    ssize_t n = read_path(tid, address, raw);
    if (n <= 0) return 0;
    static const char self_[] = "/proc/self/", thread_[] = "/proc/thread-self/";
    if ((n >= (ssize_t)sizeof self_ - 1 && memcmp(raw, self_, sizeof self_ - 1) == 0) ||
        (n >= (ssize_t)sizeof thread_ - 1 && memcmp(raw, thread_, sizeof thread_ - 1) == 0))
        return 0;
    char joined[3 * OB_PATH_MAX + 4];
    const char *whole = raw;
    size_t whole_len = (size_t)n;
    if (raw[0] != '/') {
        char link[64];
        if (dirfd == OB_AT_FDCWD)
            snprintf(link, sizeof link, "/proc/%d/cwd", (int)tid);
        else
            snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)tid, dirfd);
        ssize_t b = readlink(link, joined, OB_PATH_MAX + 1);
        if (b <= 0 || b > OB_PATH_MAX || joined[0] != '/') return 0;
        while (b > 0 && joined[b - 1] == '/') b--;
        joined[b++] = '/';
        memcpy(joined + b, raw, (size_t)n);
        whole = joined;
        whole_len = (size_t)b + (size_t)n;
    }
    if (whole_len >= 2 && whole[1] == '/' && (whole_len == 2 || whole[2] != '/'))
        return 0; /* "//x": normpath keeps both slashes */
    char path[3 * OB_PATH_MAX + 4];
    ssize_t len = normalise(whole, whole_len, path, sizeof path);
    if (len <= 0) return 0;
    char real[2 * OB_PATH_MAX + 2];
    int linked = 0;
    if (follow) {
        struct stat st;
        linked = lstat(path, &st) == 0 && S_ISLNK(st.st_mode); /* judged at its target */
    }
    /* by the names (a last link followed), as observer.judge does first */
    const char *named = path;
    ssize_t named_len = len;
    if (linked) {
        named_len = real_path(whole, whole_len, 1, real);
        if (named_len < 0) return 0;
        named = real;
    }
    if (exec ? exec_ok(self, named, (size_t)named_len)
             : open_ok(self, named, (size_t)named_len, mode))
        return 1;
    if (linked) return 0; /* that was the path the kernel reaches: refused */
    /* then on the path the kernel reaches, every link on the way followed */
    ssize_t real_len = real_path(whole, whole_len, follow, real);
    if (real_len < 0) return 0;
    return exec ? exec_ok(self, real, (size_t)real_len) : open_ok(self, real, (size_t)real_len, mode);
}

static int observed(const FastObserver *self, int nr) {
    for (Py_ssize_t i = 0; i < self->n_observed; i++)
        if (self->observed[i] == nr) return 1;
    return 0;
}

static void answer_continue(int listener, uint64_t id) {
    struct notif_resp resp = {id, 0, 0, FLAG_CONTINUE};
    /* a caller killed meanwhile (ENOENT): nothing is left to answer */
    (void)ioctl(listener, NOTIF_SEND, &resp);
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

enum { OUT_TIMEOUT, OUT_EVENTS, OUT_NOTE, OUT_SIGNAL, OUT_ERROR };

static PyObject *FastObserver_serve(FastObserver *self, PyObject *args) {
    PyObject *fds_obj;
    int timeout;
    if (!PyArg_ParseTuple(args, "Oi", &fds_obj, &timeout)) return NULL;
    PyObject *seq = PySequence_Fast(fds_obj, "fds is a sequence of descriptors");
    if (seq == NULL) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count + 1 > MAX_FDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many descriptors to watch");
        return NULL;
    }
    struct pollfd pfd[MAX_FDS];
    pfd[0].fd = self->listener;
    pfd[0].events = POLLIN;
    for (Py_ssize_t i = 0; i < count; i++) {
        long fd = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (fd == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        pfd[i + 1].fd = (int)fd;
        pfd[i + 1].events = POLLIN;
    }
    Py_DECREF(seq);
    int n = (int)count + 1;
    long long deadline = timeout >= 0 ? now_ms() + timeout : -1;
    struct notif note;
    int outcome = OUT_TIMEOUT, error = 0;
    unsigned long long passed = 0, handed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        int wait = -1;
        if (deadline >= 0) {
            long long left = deadline - now_ms();
            wait = left > 0 ? (int)left : 0;
        }
        int r = poll(pfd, (nfds_t)n, wait);
        if (r < 0) {
            outcome = errno == EINTR ? OUT_SIGNAL : OUT_ERROR;
            error = errno;
            break;
        }
        if (r == 0) {
            outcome = OUT_TIMEOUT;
            break;
        }
        int others = 0;
        for (int i = 1; i < n; i++) others |= pfd[i].revents != 0;
        if (others || !(pfd[0].revents & POLLIN)) {
            outcome = OUT_EVENTS;
            break;
        }
        memset(&note, 0, sizeof note);
        if (ioctl(self->listener, NOTIF_RECV, &note) < 0) {
            if (errno == ENOENT || errno == EINTR) continue; /* its caller is gone */
            outcome = OUT_ERROR;
            error = errno;
            break;
        }
        int through = self->floor ? observed(self, note.nr)
                                  : decide(self, (pid_t)note.pid, note.nr, note.args);
        if (!through) {
            handed++;
            outcome = OUT_NOTE;
            break;
        }
        answer_continue(self->listener, note.id);
        passed++;
    }
    Py_END_ALLOW_THREADS
    self->passed += passed;
    self->handed += handed;
    if (outcome == OUT_ERROR) {
        errno = error;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (outcome == OUT_SIGNAL && PyErr_CheckSignals() < 0) return NULL;
    if (outcome == OUT_NOTE) {
        PyObject *raw = PyBytes_FromStringAndSize((const char *)&note, sizeof note);
        if (raw == NULL) return NULL;
        PyObject *none = PyList_New(0);
        if (none == NULL) {
            Py_DECREF(raw);
            return NULL;
        }
        return Py_BuildValue("(NN)", none, raw);
    }
    PyObject *events = PyList_New(0);
    if (events == NULL) return NULL;
    if (outcome == OUT_EVENTS) {
        for (int i = 0; i < n; i++) {
            if (pfd[i].revents == 0) continue;
            PyObject *pair = Py_BuildValue("(ih)", pfd[i].fd, pfd[i].revents);
            if (pair == NULL || PyList_Append(events, pair) < 0) {
                Py_XDECREF(pair);
                Py_DECREF(events);
                return NULL;
            }
            Py_DECREF(pair);
        }
    }
    return Py_BuildValue("(NO)", events, Py_None);
}

static PyObject *FastObserver_decide(FastObserver *self, PyObject *args) {
    int tid, nr;
    PyObject *call_args;
    if (!PyArg_ParseTuple(args, "iiO", &tid, &nr, &call_args)) return NULL;
    PyObject *seq = PySequence_Fast(call_args, "the call's arguments are a sequence of ints");
    if (seq == NULL) return NULL;
    uint64_t a[6] = {0};
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < k && i < 6; i++) {
        a[i] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, i));
        if (a[i] == (uint64_t)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    /* with the interpreter lock held: the folder cache is not shared between threads */
    return PyBool_FromLong(decide(self, (pid_t)tid, nr, a));
}

static PyObject *FastObserver_counts(FastObserver *self, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("(KK)", self->passed, self->handed);
}

static PyMethodDef FastObserver_methods[] = {
    {"serve", (PyCFunction)FastObserver_serve, METH_VARARGS,
     "Wait on the listener and fds (timeout_ms, -1 for ever), answering what decide() lets "
     "through; return (ready, None) or ([], the notification Python must answer)."},
    {"decide", (PyCFunction)FastObserver_decide, METH_VARARGS,
     "Whether the call nr(args) of thread tid would be let through here untold (True) or handed "
     "to Python (False): the very decision serve() makes, for the tests."},
    {"counts", (PyCFunction)FastObserver_counts, METH_NOARGS,
     "(let through here, handed to Python) so far."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject FastObserverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "roots_manager.sandbox._fastobserve.FastObserver",
    .tp_basicsize = sizeof(FastObserver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One confined server's observed calls, the provably allowed ones answered here.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)FastObserver_init,
    .tp_dealloc = (destructor)FastObserver_dealloc,
    .tp_methods = FastObserver_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastobserve", "The observer's hot path in C.", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastobserve(void) {
    if (PyType_Ready(&FastObserverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&FastObserverType);
    if (PyModule_AddObject(m, "FastObserver", (PyObject *)&FastObserverType) < 0) {
        Py_DECREF(&FastObserverType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
