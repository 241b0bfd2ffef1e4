/*
 * The thread that makes a confined server's names, in C (roots_manager.sandbox.making).
 *
 * Maker(ruleset) starts a thread of the supervisor's that takes a file system of its own
 * (unshare CLONE_FS, a umask of 0: the caller's is applied to each mode by the caller), sets
 * no-new-privileges and confines itself to the server's Landlock ruleset, which it then closes.
 * Each method then makes one call there and returns its result, or raises OSError with the
 * call's errno: what the kernel would refuse the server, it refuses there, with the same errno.
 * If the thread cannot be confined, every call fails with EPERM: nothing is ever made here
 * outside the server's rules.
 *
 * This is making.Maker's thread, call for call, handed over through a futex (the interpreter
 * lock released meanwhile) instead of queues and the lock; where it is not built, making.Maker
 * runs in Python.
 *
 *   open(leaf, flags, mode, folder | None) -> int      openat, O_CLOEXEC added
 *   mkdir(leaf, mode, folder)                          mkdirat
 *   mknod(leaf, mode, device, folder)                  mknodat
 *   symlink(target, leaf, folder)                      symlinkat (ENAMETOOLONG past PATH_MAX)
 *   link(source, leaf, folder)                         linkat of /proc/self/fd/source, followed
 *   rename(old_folder, old, folder, leaf, flags)       renameat2
 *   unlink(leaf, folder), rmdir(leaf, folder)          unlinkat
 *   later(leaf, flags, mode, folder, then)             open in a new thread started from the
 *                                                      confined one; then(fd or OSError) once
 *                                                      it opens (a FIFO's end waits there)
 *
 * And two more, which the Python thread has not:
 *
 *   answer_open(leaf, flags, mode, folder, note, listener, cloexec, blocking) -> bool
 *   answer_mkdir(leaf, mode, folder, note, listener) -> bool
 *
 * hand over the call *and its answer*, and return at once: the thread makes it, answers it (an
 * open by putting the descriptor into the caller's, SECCOMP_IOCTL_NOTIF_ADDFD, which answers
 * the call) and closes its copy of folder. The supervisor goes on meanwhile: of the five thread
 * switches a name made cost it (~25 us each on a virtual machine), the caller waits for three.
 * A call that fails is answered here with its errno (EEXIST: npm makes each folder of each
 * file it unpacks), unless the supervisor has more to do with it: refused (EACCES, EPERM: told
 * as a refusal), or an open that met a link (ELOOP: followed) or a FIFO (ENXIO: waited for).
 * Those come back, as the raw struct seccomp_notif (note), through returned(); the descriptor
 * returned_fd is readable while any waits there, and the supervisor answers each again from
 * the start, in Python. False (nothing handed over): answer it in Python at once.
 */
#define PY_SSIZE_T_CLEAN
#define _GNU_SOURCE
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_renameat2
#define SYS_renameat2 316
#endif

enum { OP_OPEN, OP_MKDIR, OP_MKNOD, OP_SYMLINK, OP_LINK, OP_RENAME, OP_UNLINK, OP_RMDIR, OP_LATER };
#define RING 64 /* calls handed over and not yet made, at most: then the caller waits */
#define RETURNED 64 /* calls handed over and not answered, at most: then answered in Python */
#define NOTE_SIZE ((Py_ssize_t)sizeof(struct seccomp_notif))

typedef struct {
    int op;
    int folder, other_folder; /* other_folder: the old name's, for a rename */
    const char *leaf, *other; /* other: a link's target, a rename's old name */
    int flags;
    unsigned int mode;
    unsigned long long device;
    int source;
    PyObject *then;
    /* answer_open's and answer_mkdir's: */
    int answers, listener, cloexec, blocking;
    char note[sizeof(struct seccomp_notif)];
    char own_leaf[PATH_MAX + 1];
    long result;
    int error;
    _Atomic int done; /* a waited call's: made, its result above */
} Call;

typedef struct {
    char note[sizeof(struct seccomp_notif)];
} Returned;

typedef struct {
    PyObject_HEAD
    pthread_t thread;
    pthread_mutex_t one; /* each answer to its own call */
    Call ring[RING];
    _Atomic unsigned int head, tail; /* calls handed over, and taken (wrapping) */
    _Atomic int ready;      /* the thread is confined, or failed to be */
    int ruleset;
    int failed; /* the errno that kept the thread from being confined (0: it is) */
    int started;
    pthread_mutex_t held; /* the returned calls' */
    Returned returned[RETURNED];
    int count, reserved; /* returned, and handed over (each may come back) */
    int returned_fd;
} Maker;

typedef struct {
    char *leaf;
    int flags;
    unsigned int mode;
    int folder;
    PyObject *then;
} Later;

/* A futex call on *word* (32 bits): wait while it holds *value*, or wake its waiters. */
static long futex(volatile void *word, int op, unsigned int value)
{
    return syscall(SYS_futex, word, op, value, NULL, NULL, 0);
}

static void post(_Atomic int *word, int value)
{
    atomic_store(word, value);
    futex(word, FUTEX_WAKE_PRIVATE, INT_MAX);
}

static void post_count(_Atomic unsigned int *word, unsigned int value)
{
    atomic_store(word, value);
    futex(word, FUTEX_WAKE_PRIVATE, INT_MAX);
}

static void *opened_later(void *arg)
{
    Later *later = arg;
    int fd = openat(later->folder, later->leaf, later->flags | O_CLOEXEC, later->mode);
    int error = errno;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *result = fd >= 0 ? PyLong_FromLong(fd)
                               : PyObject_CallFunction(PyExc_OSError, "is", error, strerror(error));
    if (result == NULL) {
        if (fd >= 0)
            close(fd);
        PyErr_WriteUnraisable(later->then);
    } else {
        PyObject *done = PyObject_CallOneArg(later->then, result);
        if (done == NULL)
            PyErr_WriteUnraisable(later->then);
        Py_XDECREF(done);
        Py_DECREF(result);
    }
    Py_DECREF(later->then);
    PyGILState_Release(gil);
    free(later->leaf);
    free(later);
    return NULL;
}

static long start_later(Call *c)
{
    Later *later = malloc(sizeof *later);
    char *leaf = strdup(c->leaf);
    if (later == NULL || leaf == NULL) {
        free(later);
        free(leaf);
        errno = ENOMEM;
        return -1;
    }
    *later = (Later){leaf, c->flags, c->mode, c->folder, c->then};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int error = pthread_create(&thread, &attr, opened_later, later); /* confined as this one */
    pthread_attr_destroy(&attr);
    if (error) {
        free(leaf);
        free(later);
        errno = error;
        return -1;
    }
    return 0; /* the reference to then is the new thread's now */
}

static long make(Call *c)
{
    char source[64];
    switch (c->op) {
    case OP_OPEN:
        return openat(c->folder, c->leaf, c->flags | O_CLOEXEC, c->mode);
    case OP_MKDIR:
        return mkdirat(c->folder, c->leaf, c->mode);
    case OP_MKNOD:
        return mknodat(c->folder, c->leaf, c->mode, (dev_t)c->device);
    case OP_SYMLINK:
        if (strlen(c->other) >= PATH_MAX) {
            errno = ENAMETOOLONG;
            return -1;
        }
        return symlinkat(c->other, c->folder, c->leaf);
    case OP_LINK:
        snprintf(source, sizeof source, "/proc/self/fd/%d", c->source);
        return linkat(AT_FDCWD, source, c->folder, c->leaf, AT_SYMLINK_FOLLOW);
    case OP_RENAME:
        return syscall(SYS_renameat2, c->other_folder, c->other, c->folder, c->leaf, c->flags);
    case OP_UNLINK:
        return unlinkat(c->folder, c->leaf, 0);
    case OP_RMDIR:
        return unlinkat(c->folder, c->leaf, AT_REMOVEDIR);
    case OP_LATER:
        return start_later(c);
    }
    errno = EINVAL;
    return -1;
}

static void respond(int listener, unsigned long long id, int error)
{
    struct seccomp_notif_resp response = {.id = id, .error = -error};
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &response); /* failed: the caller is gone */
}

/* Whether a call that failed with *error* goes back to the supervisor (see the top). */
static int returns(int op, int error)
{
    return error == EACCES || error == EPERM ||
           (op == OP_OPEN && (error == ELOOP || error == ENXIO));
}

/* answer_open's or answer_mkdir's call, made and answered here, or returned (see the top). */
static void answer(Maker *m, Call *c)
{
    int made = m->failed ? (errno = EPERM, -1) : (int)make(c); /* a descriptor, or mkdir's 0 */
    int error = errno;
    unsigned long long id = ((struct seccomp_notif *)c->note)->id;
    close(c->folder);
    if (made >= 0 && c->op == OP_MKDIR)
        respond(c->listener, id, 0);
    else if (made < 0 && !returns(c->op, error))
        respond(c->listener, id, error);
    if (made >= 0 && c->op == OP_OPEN) {
        int fd = made;
        if (c->blocking) /* opened: a FIFO's writer found its reader, as it would wait */
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        struct seccomp_notif_addfd addfd = {
            .id = id,
            .flags = SECCOMP_ADDFD_FLAG_SEND,
            .srcfd = (unsigned int)fd,
            .newfd_flags = c->cloexec ? O_CLOEXEC : 0,
        };
        /* not put there (its table full: EMFILE): the call fails so, as making.Namer's */
        if (ioctl(c->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0 && errno != ENOENT)
            respond(c->listener, id, errno);
        close(fd);
    }
    int back = made < 0 && returns(c->op, error);
    pthread_mutex_lock(&m->held);
    m->reserved--;
    if (back)
        memcpy(m->returned[m->count++].note, c->note, sizeof c->note);
    pthread_mutex_unlock(&m->held);
    if (back) {
        uint64_t one = 1;
        if (write(m->returned_fd, &one, sizeof one) < 0) { /* full: readable all the same */
        }
    }
}

static void *serve(void *arg)
{
    Maker *m = arg;
    if (unshare(CLONE_FS) != 0)
        m->failed = errno;
    else {
        umask(0);
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            syscall(SYS_landlock_restrict_self, m->ruleset, 0) != 0)
            m->failed = errno ? errno : EPERM;
    }
    close(m->ruleset);
    post(&m->ready, 1); /* confined, or failed: __init__ goes on */
    for (unsigned int tail = 0;; tail++) {
        unsigned int head;
        while ((head = atomic_load(&m->head)) == tail)
            futex(&m->head, FUTEX_WAIT_PRIVATE, head);
        Call *c = &m->ring[tail % RING];
        if (c->answers) {
            c->leaf = c->own_leaf;
            answer(m, c);
        } else {
            if (m->failed) {
                c->result = -1;
                c->error = EPERM;
            } else {
                errno = 0;
                c->result = make(c);
                c->error = c->result < 0 ? errno : 0;
            }
            post(&c->done, 1);
        }
        post_count(&m->tail, tail + 1); /* its slot free for the next */
    }
    return NULL;
}

/* Put *c* in the thread's ring, once a slot is free (lock "one" held); its slot. */
static Call *hand(Maker *m, Call *c)
{
    unsigned int head = atomic_load(&m->head), tail;
    while (head - (tail = atomic_load(&m->tail)) >= RING)
        futex(&m->tail, FUTEX_WAIT_PRIVATE, tail);
    Call *slot = &m->ring[head % RING];
    memcpy(slot, c, offsetof(Call, done));
    atomic_store(&slot->done, 0);
    post_count(&m->head, head + 1);
    return slot;
}

/* Hand *c* to the thread and wait for its result; NULL with OSError set if it failed. */
static PyObject *ask(Maker *m, Call *c)
{
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&m->one); /* held until the result is read: the slot stays this call's */
    Call *slot = hand(m, c);
    while (!atomic_load(&slot->done))
        futex(&slot->done, FUTEX_WAIT_PRIVATE, 0);
    c->result = slot->result;
    c->error = slot->error;
    pthread_mutex_unlock(&m->one);
    Py_END_ALLOW_THREADS
    if (c->result < 0) {
        errno = c->error;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLong(c->result);
}

static PyObject *none_of(PyObject *made)
{
    if (made == NULL)
        return NULL;
    Py_DECREF(made);
    Py_RETURN_NONE;
}

static int folder_of(PyObject *folder, int *fd)
{
    if (folder == Py_None) {
        *fd = AT_FDCWD;
        return 1;
    }
    long value = PyLong_AsLong(folder);
    if (value == -1 && PyErr_Occurred())
        return 0;
    if (value < INT_MIN || value > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "not a descriptor");
        return 0;
    }
    *fd = (int)value;
    return 1;
}

static PyObject *Maker_open(Maker *m, PyObject *args)
{
    Call c = {.op = OP_OPEN};
    PyObject *folder;
    if (!PyArg_ParseTuple(args, "yiIO", &c.leaf, &c.flags, &c.mode, &folder) ||
        !folder_of(folder, &c.folder))
        return NULL;
    return ask(m, &c);
}

static PyObject *Maker_mkdir(Maker *m, PyObject *args)
{
    Call c = {.op = OP_MKDIR};
    if (!PyArg_ParseTuple(args, "yIi", &c.leaf, &c.mode, &c.folder))
        return NULL;
    return none_of(ask(m, &c));
}

static PyObject *Maker_mknod(Maker *m, PyObject *args)
{
    Call c = {.op = OP_MKNOD};
    if (!PyArg_ParseTuple(args, "yIKi", &c.leaf, &c.mode, &c.device, &c.folder))
        return NULL;
    return none_of(ask(m, &c));
}

static PyObject *Maker_symlink(Maker *m, PyObject *args)
{
    Call c = {.op = OP_SYMLINK};
    if (!PyArg_ParseTuple(args, "yyi", &c.other, &c.leaf, &c.folder))
        return NULL;
    return none_of(ask(m, &c));
}

static PyObject *Maker_link(Maker *m, PyObject *args)
{
    Call c = {.op = OP_LINK};
    if (!PyArg_ParseTuple(args, "iyi", &c.source, &c.leaf, &c.folder))
        return NULL;
    return none_of(ask(m, &c));
}

static PyObject *Maker_rename(Maker *m, PyObject *args)
{
    Call c = {.op = OP_RENAME};
    if (!PyArg_ParseTuple(args, "iyiyi", &c.other_folder, &c.other, &c.folder, &c.leaf, &c.flags))
        return NULL;
    return none_of(ask(m, &c));
}

static PyObject *Maker_unlink(Maker *m, PyObject *args)
{
    Call c = {.op = OP_UNLINK};
    if (!PyArg_ParseTuple(args, "yi", &c.leaf, &c.folder))
        return NULL;
    return none_of(ask(m, &c));
}

static PyObject *Maker_rmdir(Maker *m, PyObject *args)
{
    Call c = {.op = OP_RMDIR};
    if (!PyArg_ParseTuple(args, "yi", &c.leaf, &c.folder))
        return NULL;
    return none_of(ask(m, &c));
}

static PyObject *Maker_later(Maker *m, PyObject *args)
{
    Call c = {.op = OP_LATER};
    if (!PyArg_ParseTuple(args, "yiIiO", &c.leaf, &c.flags, &c.mode, &c.folder, &c.then))
        return NULL;
    if (!PyCallable_Check(c.then))
        return PyErr_Format(PyExc_TypeError, "then must be callable");
    Py_INCREF(c.then); /* the waiting thread's, given back if none is started */
    PyObject *started = ask(m, &c);
    if (started == NULL)
        Py_DECREF(c.then);
    return none_of(started);
}

/* Hand *c* (its note, leaf and folder given) over to be made and answered; False if it
 * cannot be (see the top). */
static PyObject *hand_answer(Maker *m, Call *c, Py_buffer *note, const char *leaf,
                             Py_ssize_t length, int folder)
{
    int fits = note->len == NOTE_SIZE && length <= PATH_MAX && strlen(leaf) == (size_t)length;
    if (fits)
        memcpy(c->note, note->buf, sizeof c->note);
    PyBuffer_Release(note);
    if (!fits || m->failed)
        Py_RETURN_FALSE;
    memcpy(c->own_leaf, leaf, (size_t)length + 1);
    pthread_mutex_lock(&m->held);
    int room = m->count + m->reserved < RETURNED;
    m->reserved += room;
    pthread_mutex_unlock(&m->held);
    if (!room)
        Py_RETURN_FALSE;
    c->folder = fcntl(folder, F_DUPFD_CLOEXEC, 0); /* the caller's is closed once it returns */
    if (c->folder < 0) {
        pthread_mutex_lock(&m->held);
        m->reserved--;
        pthread_mutex_unlock(&m->held);
        Py_RETURN_FALSE;
    }
    c->answers = 1;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&m->one);
    hand(m, c);
    pthread_mutex_unlock(&m->one);
    Py_END_ALLOW_THREADS
    Py_RETURN_TRUE;
}

static PyObject *Maker_answer_open(Maker *m, PyObject *args)
{
    Call c = {.op = OP_OPEN};
    Py_buffer note;
    const char *leaf;
    Py_ssize_t length;
    int folder;
    if (!PyArg_ParseTuple(args, "y#iIiy*ipp", &leaf, &length, &c.flags, &c.mode, &folder, &note,
                          &c.listener, &c.cloexec, &c.blocking))
        return NULL;
    return hand_answer(m, &c, &note, leaf, length, folder);
}

static PyObject *Maker_answer_mkdir(Maker *m, PyObject *args)
{
    Call c = {.op = OP_MKDIR};
    Py_buffer note;
    const char *leaf;
    Py_ssize_t length;
    int folder;
    if (!PyArg_ParseTuple(args, "y#Iiy*i", &leaf, &length, &c.mode, &folder, &note, &c.listener))
        return NULL;
    return hand_answer(m, &c, &note, leaf, length, folder);
}

static PyObject *Maker_returned(Maker *m, PyObject *unused)
{
    (void)unused;
    uint64_t told;
    if (read(m->returned_fd, &told, sizeof told) < 0 && errno != EAGAIN)
        return PyErr_SetFromErrno(PyExc_OSError);
    Returned taken[RETURNED];
    pthread_mutex_lock(&m->held);
    int count = m->count;
    memcpy(taken, m->returned, (size_t)count * sizeof *taken);
    m->count = 0;
    pthread_mutex_unlock(&m->held);
    PyObject *out = PyList_New(count);
    for (int i = 0; out != NULL && i < count; i++) {
        PyObject *item = PyBytes_FromStringAndSize(taken[i].note, NOTE_SIZE);
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *Maker_returned_fd(Maker *m, void *closure)
{
    (void)closure;
    return PyLong_FromLong(m->returned_fd);
}

static PyObject *Maker_failed(Maker *m, void *closure)
{
    (void)closure;
    if (!m->failed)
        Py_RETURN_NONE;
    return PyUnicode_FromString(strerror(m->failed));
}

static int Maker_init(Maker *m, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"ruleset", NULL};
    if (m->started) {
        PyErr_SetString(PyExc_RuntimeError, "a maker is started once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i", names, &m->ruleset))
        return -1;
    m->returned_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m->returned_fd < 0) {
        close(m->ruleset);
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    pthread_mutex_init(&m->one, NULL);
    pthread_mutex_init(&m->held, NULL);
    atomic_store(&m->head, 0u);
    atomic_store(&m->tail, 0u);
    atomic_store(&m->ready, 0);
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before); /* signals are the main thread's */
    int error = pthread_create(&m->thread, NULL, serve, m);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (error) {
        close(m->ruleset);
        close(m->returned_fd);
        errno = error;
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    m->started = 1;
    pthread_detach(m->thread);
    Py_BEGIN_ALLOW_THREADS
    while (!atomic_load(&m->ready))
        futex(&m->ready, FUTEX_WAIT_PRIVATE, 0);
    Py_END_ALLOW_THREADS
    Py_INCREF(m); /* the thread serves until the process ends: never freed under it */
    return 0;
}

static PyMethodDef Maker_methods[] = {
    {"open", (PyCFunction)Maker_open, METH_VARARGS, "openat(folder, leaf, flags | O_CLOEXEC, mode)"},
    {"mkdir", (PyCFunction)Maker_mkdir, METH_VARARGS, "mkdirat(folder, leaf, mode)"},
    {"mknod", (PyCFunction)Maker_mknod, METH_VARARGS, "mknodat(folder, leaf, mode, device)"},
    {"symlink", (PyCFunction)Maker_symlink, METH_VARARGS, "symlinkat(target, folder, leaf)"},
    {"link", (PyCFunction)Maker_link, METH_VARARGS, "the object open as source, linked as leaf"},
    {"rename", (PyCFunction)Maker_rename, METH_VARARGS, "renameat2(old_folder, old, folder, leaf)"},
    {"unlink", (PyCFunction)Maker_unlink, METH_VARARGS, "unlinkat(folder, leaf, 0)"},
    {"rmdir", (PyCFunction)Maker_rmdir, METH_VARARGS, "unlinkat(folder, leaf, AT_REMOVEDIR)"},
    {"later", (PyCFunction)Maker_later, METH_VARARGS, "open in a thread of its own, then then()"},
    {"answer_open", (PyCFunction)Maker_answer_open, METH_VARARGS, "open and answer, later"},
    {"answer_mkdir", (PyCFunction)Maker_answer_mkdir, METH_VARARGS, "mkdir and answer, later"},
    {"returned", (PyCFunction)Maker_returned, METH_NOARGS, "the calls handed over not answered"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Maker_getset[] = {
    {"failed", (getter)Maker_failed, NULL, "why the thread is not confined (None: it is)", NULL},
    {"returned_fd", (getter)Maker_returned_fd, NULL, "readable while returned() has any", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MakerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "roots_manager.sandbox._fastmake.Maker",
    .tp_basicsize = sizeof(Maker),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A thread confined to a server's Landlock ruleset that makes its names.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Maker_init,
    .tp_methods = Maker_methods,
    .tp_getset = Maker_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastmake", "The confined server's names made in C.", -1, NULL,
};

PyMODINIT_FUNC PyInit__fastmake(void)
{
    if (PyType_Ready(&MakerType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&MakerType);
    if (PyModule_AddObject(m, "Maker", (PyObject *)&MakerType) < 0) {
        Py_DECREF(&MakerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
