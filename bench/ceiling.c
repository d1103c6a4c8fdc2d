/* ceiling.c: the FastCGI ceiling for bench/run: answers Frontdoor's request shapes over libfcgi with no logic.
 *
 * Options (positional): SOCKET THREADS TOKEN PAGE_BYTES
 *   SOCKET      unix socket path to listen on (made mode 0666)
 *   THREADS     accepting threads, each with its own FCGX_Request (bench/run uses Frontdoor's worker count)
 *   TOKEN       the session cookie value that makes the check answer 200 (compared in constant time)
 *   PAGE_BYTES  size of the fixed HTML body of the page shape (bench/run passes the real sign-in page's size)
 * Shapes, chosen by the last path segment of REQUEST_URI:
 *   .../check   200 with Remote-User/Remote-Email/Remote-Name when HTTP_COOKIE has frontdoor_session=TOKEN, else 401
 *   .../page    200 text/html of PAGE_BYTES bytes with a Set-Cookie, like GET sign_in
 *   .../post    reads the whole body, 200 small JSON, like POST verify
 * Build: cc -O2 -pthread -o ceiling ceiling.c -lfcgi
 */
#include <fcgiapp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int listen_fd;
static const char *token;
static size_t token_len;
static char *page;
static size_t page_len;
static char page_head[512];
static size_t page_head_len;

/* Constant-time: does `cookie` hold frontdoor_session=<token>? Scans every candidate without early exit on content. */
static int has_session(const char *cookie) {
    static const char name[] = "frontdoor_session=";
    if (!cookie) return 0;
    const char *p = strstr(cookie, name);
    if (!p) return 0;
    p += sizeof name - 1;
    size_t n = strcspn(p, ";");
    unsigned char diff = (unsigned char)(n != token_len);
    for (size_t i = 0; i < token_len; i++) diff |= (unsigned char)((i < n ? p[i] : 0) ^ token[i]);
    return diff == 0;
}

static void answer(FCGX_Request *r) {
    const char *uri = FCGX_GetParam("REQUEST_URI", r->envp);
    const char *slash = uri ? strrchr(uri, '/') : NULL;
    const char *shape = slash ? slash + 1 : "";
    if (strncmp(shape, "check", 5) == 0) {
        if (has_session(FCGX_GetParam("HTTP_COOKIE", r->envp))) {
            FCGX_PutS("Status: 200 OK\r\nRemote-User: 1\r\nRemote-Email: bench@example.com\r\n"
                      "Remote-Name: bench\r\nContent-Length: 0\r\n\r\n", r->out);
        } else {
            FCGX_PutS("Status: 401 Unauthorized\r\nLocation: http://127.0.0.1/account/sign_in\r\n"
                      "Content-Type: text/plain; charset=utf-8\r\n\r\nsign in first\n", r->out);
        }
    } else if (strncmp(shape, "page", 4) == 0) {
        FCGX_PutStr(page_head, (int)page_head_len, r->out);
        FCGX_PutStr(page, (int)page_len, r->out);
    } else if (strncmp(shape, "post", 4) == 0) {
        char buffer[4096];
        size_t total = 0;
        int got;
        while ((got = FCGX_GetStr(buffer, sizeof buffer, r->in)) > 0) total += (size_t)got;
        char json[256]; /* libfcgi's own printf knows no %zu: format here */
        int n = snprintf(json, sizeof json, "Status: 200 OK\r\nContent-Type: application/json\r\n\r\n"
                                            "{\"status\":\"okay\",\"email\":\"bench@example.com\",\"read\":%zu}", total);
        FCGX_PutStr(json, n, r->out);
    } else {
        FCGX_PutS("Status: 404 Not Found\r\nContent-Type: text/plain\r\n\r\nno such shape\n", r->out);
    }
}

static void *serve(void *unused) {
    (void)unused;
    FCGX_Request request;
    FCGX_InitRequest(&request, listen_fd, 0);
    while (FCGX_Accept_r(&request) >= 0) {
        answer(&request);
        FCGX_Finish_r(&request);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: ceiling SOCKET THREADS TOKEN PAGE_BYTES\n");
        return 2;
    }
    int threads = atoi(argv[2]);
    token = argv[3];
    token_len = strlen(token);
    page_len = (size_t)atol(argv[4]);
    if (threads < 1 || threads > 1024 || page_len > (1 << 20)) {
        fprintf(stderr, "ceiling: THREADS must be 1-1024 and PAGE_BYTES at most 1 MiB\n");
        return 2;
    }
    page = malloc(page_len + 1);
    static const char filler[] = "<p>Frontdoor ceiling: a fixed page of the sign-in page's size, no logic.</p>\n";
    for (size_t i = 0; i < page_len; i++) page[i] = filler[i % (sizeof filler - 1)];
    page_head_len = (size_t)snprintf(page_head, sizeof page_head,
        "Status: 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
        "Set-Cookie: frontdoor_csrf=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; Path=/account; HttpOnly; SameSite=Lax\r\n"
        "Cache-Control: no-store\r\nContent-Length: %zu\r\n\r\n", page_len);
    FCGX_Init();
    signal(SIGTERM, SIG_DFL); /* FCGX_Init catches TERM; the bench stops us with it */
    unlink(argv[1]);
    listen_fd = FCGX_OpenSocket(argv[1], 128);
    if (listen_fd < 0 || chmod(argv[1], 0666) != 0) {
        fprintf(stderr, "ceiling: cannot listen on %s\n", argv[1]);
        return 1;
    }
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, serve, NULL);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    return 0;
}
