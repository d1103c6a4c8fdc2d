/* argon2rate.c: the raw argon2id rate for bench/run: one hashing thread per core for a fixed time, prints hashes/s.
 *
 * Options (positional): MEMORY_KIB ITERATIONS PARALLELISM SECONDS [THREADS]
 *   the argon2id parameters of Frontdoor's config (password.argon2_*), the measuring time, and the thread count
 *   (default: the number of online cores). Each hash is argon2id_hash_raw of a 20-byte password, 16-byte salt,
 *   32-byte output: the work of one verify. Prints one JSON line: {"hashes":…, "seconds":…, "rate":…, "threads":…}.
 * Build: cc -O2 -pthread -o argon2rate argon2rate.c -largon2
 */
#include <argon2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned memory_kib, iterations, parallelism;
static double deadline;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *hash_loop(void *count) {
    const char password[] = "correct horse battery";
    unsigned char salt[16] = "bench-salt-16byt", out[32];
    long done = 0;
    while (now() < deadline) {
        int rc = argon2id_hash_raw(iterations, memory_kib, parallelism, password, sizeof password - 1,
                                   salt, sizeof salt, out, sizeof out);
        if (rc != ARGON2_OK) {
            fprintf(stderr, "argon2rate: %s\n", argon2_error_message(rc));
            exit(1);
        }
        salt[0]++;
        done++;
    }
    *(long *)count = done;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 5 || argc > 6) {
        fprintf(stderr, "usage: argon2rate MEMORY_KIB ITERATIONS PARALLELISM SECONDS [THREADS]\n");
        return 2;
    }
    memory_kib = (unsigned)atoi(argv[1]);
    iterations = (unsigned)atoi(argv[2]);
    parallelism = (unsigned)atoi(argv[3]);
    double seconds = atof(argv[4]);
    int threads = argc == 6 ? atoi(argv[5]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (memory_kib < 8 || iterations < 1 || parallelism < 1 || seconds <= 0 || threads < 1 || threads > 256) {
        fprintf(stderr, "argon2rate: bad parameters\n");
        return 2;
    }
    pthread_t ids[256];
    long counts[256];
    double start = now();
    deadline = start + seconds;
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, hash_loop, &counts[i]);
    long total = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(ids[i], NULL);
        total += counts[i];
    }
    double elapsed = now() - start;
    printf("{\"hashes\": %ld, \"seconds\": %.3f, \"rate\": %.2f, \"threads\": %d}\n", total, elapsed,
           (double)total / elapsed, threads);
    return 0;
}
