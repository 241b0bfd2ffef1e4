/*
 * The proxy's byte mover in C (roots_manager.sandbox.proxy): what one direction of an allowed
 * connection does once it is open, with the interpreter lock released once for the whole
 * connection instead of at each chunk.
 *
 * carry(src, dst, chunk) moves what the socket src receives to the socket dst in the kernel
 * (splice through a pipe of its own, grown to chunk bytes: the bytes never reach this process)
 * until src ends, then ends dst's sending side, so the other end sees the close. On an error
 * either way (a reset, a peer gone) it ends both sockets both ways, so the other direction's
 * carry ends too. It returns None; OSError only if its pipe cannot be made.
 *
 * This is proxy._carry's loop, call for call; where it is not built (no C compiler, a pure
 * wheel) the proxy runs that loop in Python.
 */
#define PY_SSIZE_T_CLEAN
#define _GNU_SOURCE
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

static int move_all(int src, int dst, int into, int out, Py_ssize_t chunk)
{
    for (;;) {
        ssize_t moved = splice(src, NULL, out, NULL, (size_t)chunk, SPLICE_F_MOVE);
        if (moved < 0 && errno == EINTR)
            continue;
        if (moved <= 0)
            return moved == 0 ? 0 : -1;
        while (moved > 0) {
            ssize_t sent = splice(into, NULL, dst, NULL, (size_t)moved, SPLICE_F_MOVE);
            if (sent < 0 && errno == EINTR)
                continue;
            if (sent <= 0)
                return -1;
            moved -= sent;
        }
    }
}

static PyObject *carry(PyObject *self, PyObject *args)
{
    int src, dst, fds[2], failed;
    Py_ssize_t chunk;

    (void)self;
    if (!PyArg_ParseTuple(args, "iin", &src, &dst, &chunk))
        return NULL;
    if (chunk <= 0) {
        PyErr_SetString(PyExc_ValueError, "chunk must be positive");
        return NULL;
    }
    if (pipe2(fds, O_CLOEXEC) < 0)
        return PyErr_SetFromErrno(PyExc_OSError);
    Py_BEGIN_ALLOW_THREADS
    (void)fcntl(fds[0], F_SETPIPE_SZ, (int)chunk); /* as large as this user may have it */
    failed = move_all(src, dst, fds[0], fds[1], chunk);
    if (failed) {
        shutdown(dst, SHUT_RDWR); /* the other direction ends too */
        shutdown(src, SHUT_RDWR);
    } else {
        shutdown(dst, SHUT_WR);
    }
    close(fds[0]);
    close(fds[1]);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"carry", carry, METH_VARARGS,
     "carry(src, dst, chunk): move what socket src receives to socket dst until src ends."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastcarry", "The proxy's byte mover in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastcarry(void)
{
    return PyModule_Create(&module);
}
