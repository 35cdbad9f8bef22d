// libsodium, from Debian's libsodium-dev: the key derivation (Argon2id), authenticated
// encryption (XChaCha20-Poly1305) and guarded memory the encrypted journal is built on.
#include <sodium.h>
