// Signature checks through OpenSSL's libcrypto for BrowserID's legacy algorithms: DSA (DS128: SHA-1,
// DS256: SHA-256) and RSA PKCS#1 v1.5 with SHA-256 at any size libcrypto takes. Keys are built from their big-endian
// numbers; a DSA signature comes as r||s and is DER-encoded here. Each returns 1 for a valid signature, 0 otherwise.
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/dsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

static inline EVP_PKEY *fd_key_from_numbers(const char *type, const char *const names[], const unsigned char *const numbers[],
                                            const size_t lengths[], int count) {
    OSSL_PARAM_BLD *build = OSSL_PARAM_BLD_new();
    BIGNUM *values[4] = {0};
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    EVP_PKEY *key = NULL;
    int ok = build != NULL && count <= 4;
    for (int i = 0; ok && i < count; i++) {
        values[i] = BN_bin2bn(numbers[i], (int)lengths[i], NULL);
        ok = values[i] != NULL && OSSL_PARAM_BLD_push_BN(build, names[i], values[i]);
    }
    if (ok) params = OSSL_PARAM_BLD_to_param(build);
    if (params) ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    if (ctx && EVP_PKEY_fromdata_init(ctx) == 1) {
        if (EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    for (int i = 0; i < 4; i++) BN_free(values[i]);
    OSSL_PARAM_BLD_free(build);
    return key;
}

static inline int fd_verify_with(EVP_PKEY *key, int sha256, const unsigned char *message, size_t messageLength,
                                 const unsigned char *signature, size_t signatureLength) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int valid = ctx != NULL && key != NULL
        && EVP_DigestVerifyInit(ctx, NULL, sha256 ? EVP_sha256() : EVP_sha1(), NULL, key) == 1
        && EVP_DigestVerify(ctx, signature, signatureLength, message, messageLength) == 1;
    EVP_MD_CTX_free(ctx);
    return valid;
}

static inline int fd_rsa_verify(const unsigned char *n, size_t nLength, const unsigned char *e, size_t eLength,
                                const unsigned char *message, size_t messageLength,
                                const unsigned char *signature, size_t signatureLength) {
    const char *names[] = {OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E};
    const unsigned char *numbers[] = {n, e};
    size_t lengths[] = {nLength, eLength};
    EVP_PKEY *key = fd_key_from_numbers("RSA", names, numbers, lengths, 2);
    int valid = fd_verify_with(key, 1, message, messageLength, signature, signatureLength);
    EVP_PKEY_free(key);
    return valid;
}

static inline int fd_dsa_verify(const unsigned char *p, size_t pLength, const unsigned char *q, size_t qLength,
                                const unsigned char *g, size_t gLength, const unsigned char *y, size_t yLength, int sha256,
                                const unsigned char *message, size_t messageLength,
                                const unsigned char *r, const unsigned char *s, size_t halfLength) {
    const char *names[] = {OSSL_PKEY_PARAM_FFC_P, OSSL_PKEY_PARAM_FFC_Q, OSSL_PKEY_PARAM_FFC_G, OSSL_PKEY_PARAM_PUB_KEY};
    const unsigned char *numbers[] = {p, q, g, y};
    size_t lengths[] = {pLength, qLength, gLength, yLength};
    EVP_PKEY *key = fd_key_from_numbers("DSA", names, numbers, lengths, 4);
    DSA_SIG *sig = DSA_SIG_new();
    BIGNUM *rn = BN_bin2bn(r, (int)halfLength, NULL), *sn = BN_bin2bn(s, (int)halfLength, NULL);
    unsigned char *der = NULL;
    int derLength = -1, valid = 0;
    if (sig && rn && sn && DSA_SIG_set0(sig, rn, sn) == 1) {
        rn = sn = NULL;   // owned by sig now
        derLength = i2d_DSA_SIG(sig, &der);
    }
    if (derLength > 0) valid = fd_verify_with(key, sha256, message, messageLength, der, (size_t)derLength);
    OPENSSL_free(der);
    BN_free(rn);
    BN_free(sn);
    DSA_SIG_free(sig);
    EVP_PKEY_free(key);
    return valid;
}
