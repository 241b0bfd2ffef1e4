/*
 * The floor of a relay for bench/bench_proxy.py: a TCP relay on the loopback that does nothing
 * but move bytes, in the kernel, as the proxy does once a connection is allowed (splice through
 * a pipe, one thread a direction), with no language and no request to read.
 *
 *   splice_relay PORT    listens on a free loopback port (printed on stdout), and carries each
 *                        connection to 127.0.0.1:PORT
 *
 * Built by bench_proxy.py with the machine's C compiler; not part of the product.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static int target;

struct way {
    int src, dst;
};

static void *carry(void *arg)
{
    struct way *w = arg;
    int fds[2];
    ssize_t n;

    if (pipe(fds) < 0)
        return NULL;
    fcntl(fds[0], F_SETPIPE_SZ, CHUNK);
    while ((n = splice(w->src, NULL, fds[1], NULL, CHUNK, SPLICE_F_MOVE)) > 0) {
        while (n > 0) {
            ssize_t m = splice(fds[0], NULL, w->dst, NULL, n, SPLICE_F_MOVE);
            if (m <= 0)
                goto out;
            n -= m;
        }
    }
out:
    shutdown(w->dst, SHUT_WR);
    close(fds[0]);
    close(fds[1]);
    return NULL;
}

static void *serve(void *arg)
{
    int client = (int)(long)arg;
    int upstream = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(target)};
    pthread_t other;

    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (upstream >= 0 && connect(upstream, (struct sockaddr *)&to, sizeof to) == 0) {
        struct way up = {client, upstream}, down = {upstream, client};
        if (pthread_create(&other, NULL, carry, &down) == 0) {
            carry(&up);
            pthread_join(other, NULL);
        }
    }
    close(client);
    if (upstream >= 0)
        close(upstream);
    return NULL;
}

int main(int argc, char **argv)
{
    struct sockaddr_in at = {.sin_family = AF_INET};
    socklen_t size = sizeof at;
    int listener = socket(AF_INET, SOCK_STREAM, 0);

    if (argc != 2 || listener < 0)
        return 2;
    signal(SIGPIPE, SIG_IGN); /* a client gone: that connection ends, not the relay */
    target = atoi(argv[1]);
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, (struct sockaddr *)&at, sizeof at) < 0 || listen(listener, 64) < 0 ||
        getsockname(listener, (struct sockaddr *)&at, &size) < 0)
        return 1;
    printf("%d\n", ntohs(at.sin_port));
    fflush(stdout);
    for (;;) {
        pthread_t thread;
        int client = accept(listener, NULL, NULL);
        if (client < 0)
            continue;
        if (pthread_create(&thread, NULL, serve, (void *)(long)client) != 0)
            close(client);
        else
            pthread_detach(thread);
    }
}
