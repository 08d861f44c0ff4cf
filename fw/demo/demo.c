/* The firmware demo of `montu soc demo`: RSA-1024 and ECDSA/ECDH on P-256 and sect283k1, all on
 * the Montu unit through the firmware library, on the simulated CVA6 SoC.
 *
 * The host (src/montu/soc/demo.py) compiles this with a generated `montu_demo_seed` (its entropy)
 * and `montu_demo_message`, reads what it prints and checks every key, signature, ciphertext and
 * shared secret with the openssl CLI. Line protocol (one item per line):
 *   progress C                     a key-generation event ('.', '+', '*', as OpenSSL prints)
 *   number NAME W1 W2 ...          a number, 64-bit hex words, most significant first
 *   bytes NAME HEX                 a byte string
 *   step NAME system=C unit=U err=E   a step ended: its SoC cycles, the unit's cycles, its result
 * The keys are throwaway demo keys: they are printed so that the host can check them. */
#include <stdio.h>
#include <string.h>

#include "montu.h"
#include "montu_ec.h"
#include "montu_hash.h"
#include "montu_random.h"
#include "montu_rsa.h"
#include "montu_soc.h"

extern const uint8_t montu_demo_seed[48];
extern const char montu_demo_message[];

#define RSA_BITS 1024

typedef struct {
  uint64_t system, unit;
} mark;

static mark now(void) { return (mark){montu_soc_cycles(), montu_soc_unit_cycles()}; }

/* The step being measured: RUN(call) times the call; its values are printed next, then
 * report() prints the step line (the host checks a step's values when its line arrives). */
static mark started, ended;
static int result, failures;
static int finished(int error) {
  ended = now();
  return result = error;
}
#define RUN(call) (started = now(), finished(call))

/* The step's line; `expect_success` says whether 0 is the right answer (the host checks the
 * values; the exit code counts the steps whose result was not of the expected kind). */
static int report(const char *name, int expect_success) {
  printf("step %s system=%llu unit=%llu err=%d\n", name,
         (unsigned long long)(ended.system - started.system),
         (unsigned long long)(ended.unit - started.unit), result);
  if ((result == 0) != expect_success) ++failures;
  return result;
}

static void number(const char *name, const uint64_t *x, unsigned words) {
  printf("number %s ", name);
  montu_soc_print_number(x, words);
  printf("\n");
}

static void bytes(const char *name, const uint8_t *x, size_t length) {
  printf("bytes %s ", name);
  for (size_t i = 0; i < length; ++i) printf("%02x", x[i]);
  printf("\n");
}

static void progress(char event) { printf("progress %c\n", event); }

static void rsa_demo(const uint8_t digest[MONTU_SHA256_BYTES], const uint8_t *message, size_t length) {
  static montu_rsa_private_key key;
  static uint8_t signature[RSA_BITS / 8], ciphertext[RSA_BITS / 8], plaintext[RSA_BITS / 8];
  const unsigned words = RSA_BITS / 64;
  if (RUN(montu_rsa_generate(&key, RSA_BITS, 65537, progress)) == 0) {
    number("rsa.n", key.pub.n, words);
    printf("number rsa.e %016llx\n", (unsigned long long)key.pub.e);
    number("rsa.d", key.d, words);
    number("rsa.p", key.p, words / 2);
    number("rsa.q", key.q, words / 2);
    number("rsa.dp", key.dp, words / 2);
    number("rsa.dq", key.dq, words / 2);
    number("rsa.qinv", key.qinv, words / 2);
  }
  if (report("rsa.keygen", 1)) return;

  if (RUN(montu_rsa_sign_pkcs1_sha256(signature, &key, digest)) == 0)
    bytes("rsa.signature", signature, sizeof signature);
  report("rsa.sign", 1);
  RUN(montu_rsa_verify_pkcs1_sha256(&key.pub, digest, signature));
  report("rsa.verify", 1);
  signature[sizeof signature / 2] ^= 0x10;
  RUN(montu_rsa_verify_pkcs1_sha256(&key.pub, digest, signature));
  report("rsa.verify_tampered", 0);

  if (RUN(montu_rsa_encrypt_oaep_sha256(ciphertext, &key.pub, message, length)) == 0)
    bytes("rsa.ciphertext", ciphertext, sizeof ciphertext);
  report("rsa.encrypt", 1);
  size_t got = 0;
  if (RUN(montu_rsa_decrypt_oaep_sha256(plaintext, &got, sizeof plaintext, &key, ciphertext)) == 0)
    bytes("rsa.plaintext", plaintext, got);
  report("rsa.decrypt", 1);
  memset(&key, 0, sizeof key);
}

static void ec_demo(montu_curve curve, const char *tag, const uint8_t digest[MONTU_SHA256_BYTES]) {
  uint64_t d[MONTU_EC_MAX_WORDS], qx[MONTU_EC_MAX_WORDS], qy[MONTU_EC_MAX_WORDS];
  uint64_t e[MONTU_EC_MAX_WORDS], ex[MONTU_EC_MAX_WORDS], ey[MONTU_EC_MAX_WORDS];
  uint64_t r[MONTU_EC_MAX_WORDS], s[MONTU_EC_MAX_WORDS], shared[MONTU_EC_MAX_WORDS];
  const unsigned words = montu_ec_words(curve);
  char name[48];
#define NAME(suffix) (snprintf(name, sizeof name, "%s.%s", tag, suffix), name)

  if (RUN(montu_ecdsa_generate(curve, d, qx, qy)) == 0) {
    number(NAME("d"), d, words);
    number(NAME("qx"), qx, words);
    number(NAME("qy"), qy, words);
  }
  if (report(NAME("keygen"), 1)) return;
  if (RUN(montu_ecdsa_sign_sha256(curve, r, s, d, digest)) == 0) {
    number(NAME("r"), r, words);
    number(NAME("s"), s, words);
  }
  report(NAME("sign"), 1);
  RUN(montu_ecdsa_verify_sha256(curve, qx, qy, digest, r, s));
  report(NAME("verify"), 1);
  s[0] ^= 4;
  RUN(montu_ecdsa_verify_sha256(curve, qx, qy, digest, r, s));
  report(NAME("verify_tampered"), 0);

  if (RUN(montu_ecdsa_generate(curve, e, ex, ey)) == 0) {
    number(NAME("peer_d"), e, words);
    number(NAME("peer_qx"), ex, words);
    number(NAME("peer_qy"), ey, words);
  }
  if (report(NAME("peer_keygen"), 1)) return;
  if (RUN(montu_ecdh(curve, shared, d, ex, ey)) == 0) number(NAME("shared"), shared, words);
  report(NAME("ecdh"), 1);
  if (RUN(montu_ecdh(curve, shared, e, qx, qy)) == 0) number(NAME("peer_shared"), shared, words);
  report(NAME("ecdh_peer"), 1);
  memset(d, 0, sizeof d);
  memset(e, 0, sizeof e);
#undef NAME
}

int main(void) {
  RUN(montu_random_seed(montu_demo_seed, sizeof montu_demo_seed));
  report("seed", 1);
  const uint8_t *message = (const uint8_t *)montu_demo_message;
  size_t length = strlen(montu_demo_message);
  uint8_t digest[MONTU_SHA256_BYTES];
  RUN((montu_sha256(digest, message, length), 0));
  bytes("sha256", digest, sizeof digest);
  report("sha256", 1);
  rsa_demo(digest, message, length);
  ec_demo(MONTU_CURVE_P256, "p256", digest);
  ec_demo(MONTU_CURVE_SECT283K1, "sect283k1", digest);
  montu_random_wipe();
  return failures;
}
