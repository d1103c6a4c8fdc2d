// Typed wrappers over libcurl's variadic setopt/getinfo, which Swift cannot call directly.
#include <curl/curl.h>

static inline CURLcode fd_curl_setopt_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode fd_curl_setopt_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode fd_curl_setopt_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode fd_curl_setopt_slist(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode fd_curl_setopt_read(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(c, CURLOPT_READFUNCTION, f);
}
static inline CURLcode fd_curl_setopt_write(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode fd_curl_getinfo_long(CURL *c, CURLINFO i, long *v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode fd_curl_getinfo_string(CURL *c, CURLINFO i, char **v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode fd_curl_setopt_opensocket(CURL *c, curl_socket_t (*f)(void *, curlsocktype, struct curl_sockaddr *)) {
    return curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, f);
}
