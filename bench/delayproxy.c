// delayproxy.c: a TCP loopback listener that forwards each connection to a unix socket (the bench's PostgreSQL) and
// delays every chunk by a fixed time in each direction: a network round trip between machines, on one machine.
// bench/storage uses it because this kernel has no netem (CONFIG_NET_SCH_NETEM is not set, no modules to load).
//   delayproxy PORT UNIX_SOCKET DELAY_US     listens on 127.0.0.1:PORT; prints "ready" once listening
// A delay line, not a pause: a reader thread stamps each chunk with the time it arrived and queues it, a writer thread
// sends it when that time plus DELAY_US has come, so chunks in flight overlap as on a wire (bandwidth is not limited).
// End of stream is forwarded (shutdown of the write side) after the same delay.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static long delay_ns;
static const char *upstream_path;

struct chunk { struct chunk *next; struct timespec due; ssize_t length; char data[]; };   // length 0: end of stream

struct direction {   // one way of one connection: `from` read by the reader, queued, written to `to` by the writer
  int from, to;
  pthread_mutex_t lock;
  pthread_cond_t ready;
  struct chunk *head, *tail;
  struct connection *owner;
};

struct connection { struct direction up, down; pthread_mutex_t lock; int threads_left; };

static void finish_thread(struct connection *c) {   // the last of the four threads closes both sockets
  pthread_mutex_lock(&c->lock);
  int left = --c->threads_left;
  pthread_mutex_unlock(&c->lock);
  if (left == 0) { close(c->up.from); close(c->up.to); free(c); }
}

static void *reader(void *arg) {
  struct direction *d = arg;
  for (;;) {
    struct chunk *chunk = malloc(sizeof *chunk + 65536);
    ssize_t n = read(d->from, chunk->data, 65536);
    if (n < 0 && errno == EINTR) { free(chunk); continue; }
    chunk->length = n > 0 ? n : 0;
    chunk->next = NULL;
    clock_gettime(CLOCK_MONOTONIC, &chunk->due);
    chunk->due.tv_nsec += delay_ns;
    chunk->due.tv_sec += chunk->due.tv_nsec / 1000000000L;
    chunk->due.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&d->lock);
    if (d->tail) d->tail->next = chunk; else d->head = chunk;
    d->tail = chunk;
    pthread_cond_signal(&d->ready);
    pthread_mutex_unlock(&d->lock);
    if (n <= 0) break;
  }
  finish_thread(d->owner);
  return NULL;
}

static void *writer(void *arg) {
  struct direction *d = arg;
  for (;;) {
    pthread_mutex_lock(&d->lock);
    while (!d->head) pthread_cond_wait(&d->ready, &d->lock);
    struct chunk *chunk = d->head;
    d->head = chunk->next;
    if (!d->head) d->tail = NULL;
    pthread_mutex_unlock(&d->lock);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &chunk->due, NULL) == EINTR) {}
    ssize_t length = chunk->length, sent = 0;
    while (sent < length) {
      ssize_t n = write(d->to, chunk->data + sent, length - sent);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) { length = 0; break; }
      sent += n;
    }
    free(chunk);
    if (length == 0) { shutdown(d->to, SHUT_WR); break; }
  }
  finish_thread(d->owner);
  return NULL;
}

static void start(struct direction *d, struct connection *c, int from, int to) {
  d->from = from; d->to = to; d->head = d->tail = NULL; d->owner = c;
  pthread_mutex_init(&d->lock, NULL);
  pthread_cond_init(&d->ready, NULL);
}

static void spawn(void *(*body)(void *), void *arg) {
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  if (pthread_create(&thread, &attr, body, arg) != 0) { perror("pthread_create"); exit(1); }
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: delayproxy PORT UNIX_SOCKET DELAY_US\n"); return 2; }
  delay_ns = atol(argv[3]) * 1000L;
  upstream_path = argv[2];
  signal(SIGPIPE, SIG_IGN);
  int listener = socket(AF_INET, SOCK_STREAM, 0), yes = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 128) != 0) { perror("listen"); return 1; }
  printf("ready\n");
  fflush(stdout);
  for (;;) {
    int client = accept(listener, NULL, NULL);
    if (client < 0) continue;
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    int server = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un target = {.sun_family = AF_UNIX};
    strncpy(target.sun_path, upstream_path, sizeof target.sun_path - 1);
    if (connect(server, (struct sockaddr *)&target, sizeof target) != 0) { perror("connect"); close(client); close(server); continue; }
    struct connection *c = calloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->threads_left = 4;
    start(&c->up, c, client, server);
    start(&c->down, c, server, client);
    spawn(reader, &c->up); spawn(writer, &c->up);
    spawn(reader, &c->down); spawn(writer, &c->down);
  }
}
