/*
 * The floor for a compiled relay: bench/pump_hop.py in C, so that the benchmark can show how
 * much of an extra process's cost is the language and how much is the hop itself.
 *
 *   c_hop COMMAND [ARGS...]             two blocking threads, one per direction (as pump_hop.py)
 *   c_hop --spin US COMMAND [ARGS...]   one thread polling both directions, which keeps polling
 *                                       without sleeping for US microseconds after each chunk
 *   c_hop --hold COMMAND [ARGS...]      as the first, but the server's lines are held until they
 *                                       end and written whole (store and forward, as the bridge
 *                                       must for what a server says: the floor for that)
 *
 * A sleeping relay costs two more wake-ups per round trip, and on a virtual machine a wake-up on
 * an idle CPU is the dearest part of a small message's trip. Busy-polling avoids it at the price
 * of CPU time spent spinning, which the benchmark reports beside the latency.
 *
 * Every chunk is searched once for "roots", as the cheapest test a relay could make. No framing,
 * no parsing. Built by bench_bridge.py with the machine's C compiler; not part of the product.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1024 * 1024)

static int write_all(int fd, const char *buf, ssize_t n) {
    while (n > 0) {
        ssize_t w = write(fd, buf, (size_t)n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        buf += w;
        n -= w;
    }
    return 0;
}

static volatile size_t sink; /* keeps the search from being optimised away */

static ssize_t relay_once(int src, int dst, char *buf) {
    ssize_t n = read(src, buf, CHUNK);
    if (n > 0) {
        sink += (size_t)(memmem(buf, (size_t)n, "roots", 5) != NULL);
        if (write_all(dst, buf, n) < 0) return -1;
    }
    return n;
}

struct direction { int src, dst, close_dst; };

/* Store and forward: what is read is written only up to its last newline, the rest held. */
static void hold_pump(int src, int dst) {
    size_t cap = 2 * CHUNK, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (cap - len < CHUNK) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        if (!buf) return;
        ssize_t n = read(src, buf + len, CHUNK);
        if (n <= 0) break;
        sink += (size_t)(memmem(buf + len, (size_t)n, "roots", 5) != NULL);
        len += (size_t)n;
        char *nl = memrchr(buf, '\n', len);
        if (!nl) continue;
        size_t whole = (size_t)(nl - buf) + 1;
        if (write_all(dst, buf, (ssize_t)whole) < 0) break;
        memmove(buf, buf + whole, len - whole);
        len -= whole;
    }
    free(buf);
}

static int hold_server_lines;

static void *pump(void *arg) {
    struct direction *d = arg;
    if (hold_server_lines && d->src != 0) {
        hold_pump(d->src, d->dst);
        return NULL;
    }
    char *buf = malloc(CHUNK);
    while (buf && relay_once(d->src, d->dst, buf) > 0) {
    }
    if (d->close_dst) close(d->dst);
    free(buf);
    return NULL;
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void spin_relay(int to_server, int from_server, long long spin_ns) {
    char *buf = malloc(CHUNK);
    struct pollfd fds[2] = {{0, POLLIN, 0}, {from_server, POLLIN, 0}};
    int dst[2] = {to_server, 1};
    int open = 2;
    long long last = now_ns();
    while (buf && open) {
        int ready = poll(fds, 2, 0);
        if (ready == 0) {
            if (now_ns() - last < spin_ns) continue;
            ready = poll(fds, 2, -1);
        }
        if (ready < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !fds[i].revents) continue;
            if (relay_once(fds[i].fd, dst[i], buf) <= 0) {
                fds[i].fd = -1;
                open--;
                if (i == 0) close(to_server);
            }
        }
        last = now_ns();
    }
    free(buf);
}

int main(int argc, char **argv) {
    long long spin_ns = -1;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--spin") == 0) {
        spin_ns = atoll(argv[2]) * 1000LL;
        first = 3;
    } else if (argc > 1 && strcmp(argv[1], "--hold") == 0) {
        hold_server_lines = 1;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: c_hop [--spin US | --hold] COMMAND [ARGS...]\n");
        return 2;
    }
    int up[2], down[2];
    if (pipe(up) || pipe(down)) return 1;
    int grow[] = {0, 1, up[0], up[1], down[0], down[1]};
    for (size_t i = 0; i < sizeof grow / sizeof *grow; i++) fcntl(grow[i], F_SETPIPE_SZ, CHUNK);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(up[0], 0);
        dup2(down[1], 1);
        close(up[0]); close(up[1]); close(down[0]); close(down[1]);
        execvp(argv[first], argv + first);
        _exit(127);
    }
    close(up[0]);
    close(down[1]);
    if (spin_ns >= 0) {
        spin_relay(up[1], down[0], spin_ns);
    } else {
        struct direction to_server = {0, up[1], 1}, to_host = {down[0], 1, 0};
        pthread_t t;
        pthread_create(&t, NULL, pump, &to_server);
        pump(&to_host);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
