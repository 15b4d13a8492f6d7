// OpenSSL 3's libcrypto (Debian libssl-dev at build time, libssl3 at run time; Apache-2.0, linked dynamically): only
// the EVP one-shot digest, for SHA-256 of stored files.
#include <openssl/evp.h>
