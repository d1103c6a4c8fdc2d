/* netguard.c: preloaded (LD_PRELOAD) into every frontdoor the e2e suite serves, so no test traffic leaves loopback.
 * connect() to an IPv4/IPv6 address outside loopback fails with ENETUNREACH before anything is sent, and
 * is written to $NETGUARD_LOG ("blocked ADDRESS PORT"); connections within loopback are written too ("connect ...").
 * getaddrinfo() answers names from $NETGUARD_HOSTS only ("name answer1 answer2 ...": the n-th lookup of a name gets
 * the n-th answer, the last one repeating), writes "lookup NAME" for each, and refuses every other name except
 * localhost and address literals with EAI_NONAME: no lookup reaches a DNS server. The answer "stall" stands for a DNS
 * server that never answers in time: that lookup blocks for STALL_SECONDS, then fails with EAI_AGAIN. Build:
 *   gcc -shared -fPIC -O1 -o netguard.so netguard.c -ldl
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define STALL_SECONDS 60

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void note(const char *what, const char *name, int port) {
    const char *path = getenv("NETGUARD_LOG");
    if (!path) return;
    pthread_mutex_lock(&lock);
    FILE *log = fopen(path, "a");
    if (log) {
        if (port >= 0) fprintf(log, "%s %s %d\n", what, name, port); else fprintf(log, "%s %s\n", what, name);
        fclose(log);
    }
    pthread_mutex_unlock(&lock);
}

static int is_loopback(const struct sockaddr *address, char *text, size_t size, int *port) {
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)address;
        inet_ntop(AF_INET, &in->sin_addr, text, size);
        *port = ntohs(in->sin_port);
        return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    }
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)address;
    inet_ntop(AF_INET6, &in6->sin6_addr, text, size);
    *port = ntohs(in6->sin6_port);
    if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) return 1;
    return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && in6->sin6_addr.s6_addr[12] == 127;
}

int connect(int fd, const struct sockaddr *address, socklen_t length) {
    static int (*real)(int, const struct sockaddr *, socklen_t);
    if (!real) real = (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "connect");
    if (address && (address->sa_family == AF_INET || address->sa_family == AF_INET6)) {
        char text[INET6_ADDRSTRLEN] = "";
        int port = 0;
        if (!is_loopback(address, text, sizeof text, &port)) {
            note("blocked", text, port);
            errno = ENETUNREACH;
            return -1;
        }
        note("connect", text, port);
    }
    return real(fd, address, length);
}

/* The answer for the `count`-th lookup (1-based) of `name` in $NETGUARD_HOSTS, copied into `answer`; 0 if none. */
static int scripted(const char *name, int count, char *answer, size_t size) {
    const char *path = getenv("NETGUARD_HOSTS");
    FILE *file = path ? fopen(path, "r") : NULL;
    if (!file) return 0;
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, file)) {
        char *save = NULL, *word = strtok_r(line, " \t\n", &save);
        if (!word || strcmp(word, name) != 0) continue;
        for (int index = 1; (word = strtok_r(NULL, " \t\n", &save)); index++) {
            snprintf(answer, size, "%s", word);
            found = 1;
            if (index == count) break;
        }
    }
    fclose(file);
    return found;
}

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **result) {
    static int (*real)(const char *, const char *, const struct addrinfo *, struct addrinfo **);
    if (!real) real = (int (*)(const char *, const char *, const struct addrinfo *, struct addrinfo **))dlsym(RTLD_NEXT, "getaddrinfo");
    unsigned char buffer[sizeof(struct in6_addr)];
    if (!node || strcmp(node, "localhost") == 0 || inet_pton(AF_INET, node, buffer) == 1 || inet_pton(AF_INET6, node, buffer) == 1) {
        return real(node, service, hints, result);
    }
    static struct { char name[256]; int count; } seen[64];
    int count = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < 64; i++) {
        if (seen[i].name[0] == 0) snprintf(seen[i].name, sizeof seen[i].name, "%s", node);
        if (strcmp(seen[i].name, node) == 0) { count = ++seen[i].count; break; }
    }
    pthread_mutex_unlock(&lock);
    note("lookup", node, -1);
    char answer[INET6_ADDRSTRLEN + 1];
    if (!scripted(node, count, answer, sizeof answer)) return EAI_NONAME;
    if (strcmp(answer, "stall") == 0) {
        sleep(STALL_SECONDS);
        return EAI_AGAIN;
    }
    struct addrinfo numeric = hints ? *hints : (struct addrinfo){0};
    numeric.ai_flags |= AI_NUMERICHOST;
    return real(answer, service, &numeric, result);
}
