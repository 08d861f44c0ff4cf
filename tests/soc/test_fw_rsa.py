"""RSA in firmware (fw/lib/rsa*.c) on the SoC, checked against Python and OpenSSL (cryptography).

One firmware run (the SoC simulation is slow): it seeds the DRBG with a fixed seed, generates a
512-bit key, signs and verifies with it, then works with a 1024-bit key made here (p < q, the
opposite of the firmware's order): PKCS#1 v1.5 signatures, OAEP both ways with OpenSSL, bad
ciphertexts, the private operation's timing for two ciphertexts, a corrupted key (the fault
check) and the error paths; and with a 1000-bit key of unequal primes and a 2048-bit public key.

The key generation is checked twice: by its properties (n = p·q, p and q prime by Miller–Rabin
here, d·e = 1 mod λ(n), the CRT values) and exactly, against `_keygen_model`, the firmware's
prime search restated in Python on the same Hash_DRBG stream: the same key and the same
progress string. The seed is one whose search meets every kind of rejection (sieve,
|p - q| / gcd of the halves, Miller–Rabin) in a short run (25 candidates, ~1.3 M SoC cycles): a
typical 512-bit search tries about ten times as many, mostly paying for the DRBG's SHA-256 on
the CPU, and would take minutes of simulation.
"""

from __future__ import annotations

import hashlib
import math
import random
import re

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils

from montu.arith.primes import is_probable_prime
from montu.rsa import padding as montu_padding
from montu.rsa.keygen import small_prime_product
from montu.soc import run as soc_run
from montu.soc.firmware import error_code
from montu.soc.vectors import c_array, parse_words

from drbg_model import HashDrbg

SEED = hashlib.sha512(b"montu fw rsa test 163").digest()[:48]
E = 65537
DIGEST = hashlib.sha256(b"Montu RSA firmware test").digest()
MESSAGE = b"OAEP on the Montu SoC"
OAEP = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
PKCS1 = padding.PKCS1v15()
PREHASHED = utils.Prehashed(hashes.SHA256())


# ------------------------------------------------------------------------ Python checkers
def _random_prime(bits: int, rng: random.Random) -> int:
    while True:
        w = rng.getrandbits(bits) | 3 << (bits - 2) | 1
        if math.gcd(E, w - 1) == 1 and is_probable_prime(w, rng):
            return w


def _key(p: int, q: int) -> rsa.RSAPrivateKey:
    """The RSA key of the primes p and q (in that order: qinv = q^-1 mod p)."""
    d = pow(E, -1, math.lcm(p - 1, q - 1))
    public = rsa.RSAPublicNumbers(E, p * q)
    return rsa.RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p), public).private_key()


def _fixed_key(p_bits: int, q_bits: int, seed: str) -> rsa.RSAPrivateKey:
    """A deterministic key (primes from random.Random) with p < q."""
    rng = random.Random(seed)
    p, q = sorted((_random_prime(p_bits, rng), _random_prime(q_bits, rng)))
    return _key(p, q)


class _Pool:
    """rsa_keygen.c's random pool: 512-byte DRBG requests, bytes handed out in order."""

    SIZE = 512

    def __init__(self, seed: bytes):
        self.drbg, self.data = HashDrbg(seed), b""

    def take(self, length: int) -> bytes:
        while len(self.data) < length:
            self.data += self.drbg.generate(self.SIZE)
        out, self.data = self.data[:length], self.data[length:]
        return out

    def words(self, words: int) -> int:
        return int.from_bytes(self.take(8 * words), "little")   # the CPU's little-endian words

    def below(self, bound: int) -> int:
        bits = bound.bit_length()
        while True:
            x = self.words(-(-bits // 64)) & ((1 << bits) - 1)
            if 0 < x < bound:
                return x


def _keygen_model(seed: bytes, bits: int, e: int = E) -> tuple[dict[str, int], str]:
    """montu_rsa_generate (= montu.rsa.keygen.generate) on the firmware's random stream, with
    Python integers: the key and the progress string it prints."""
    pool, half, events = _Pool(seed), bits // 2, []
    sieve = small_prime_product(half - 2)
    rounds = 7 if half <= 512 else 5 if half <= 1024 else 4

    def miller_rabin(w: int) -> bool:
        a = ((w - 1) & -(w - 1)).bit_length() - 1
        m = (w - 1) >> a
        for _ in range(rounds):
            z = pow(pool.below(w - 2) + 1, m, w)
            passed = z in (1, w - 1)
            for _ in range(a - 1):
                if passed:
                    break
                z = z * z % w
                if z == 1:
                    break
                passed = z == w - 1
            if not passed:
                return False
            events.append("+")
        return True

    def prime(other: int | None) -> int:
        while True:
            w = pool.words(-(-half // 64)) & ((1 << half) - 1) | 3 << (half - 2) | 1
            ok = math.gcd(sieve * pool.below(w) % w, w) == 1 and math.gcd(e, w - 1) == 1
            if ok and other is not None:
                big, small = max(w, other), min(w, other)
                ok = big - small > 1 << (half - 100) and math.gcd(small >> 1, big >> 1) == 1
            if ok and miller_rabin(w):
                events.append("*")
                return w
            events.append(".")

    while True:
        p = prime(None)
        q = prime(p)
        p, q = max(p, q), min(p, q)
        d = pow(e, -1, (p - 1) * (q >> 1))
        if d > 1 << (bits // 2):
            key = dict(n=p * q, d=d, p=p, q=q, dp=pow(e, -1, p - 1), dq=pow(e, -1, q - 1),
                       qinv=pow(q, -1, p))
            return key, "".join(events)
        events.append(".")


# ------------------------------------------------------------------------------ firmware
PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "montu.h"
#include "montu_random.h"
#include "montu_rsa.h"
#include "montu_soc.h"

@ARRAYS@
static montu_rsa_private_key generated, fixed, broken, scratch;
static uint64_t start_system, start_unit;
static uint8_t signature[MONTU_RSA_MAX_BYTES], ciphertext[MONTU_RSA_MAX_BYTES];
static uint8_t message[MONTU_RSA_MAX_BYTES];

static void begin(void) {
  start_system = montu_soc_cycles();
  start_unit = montu_soc_unit_cycles();
}
static void end(const char *label, int error) {
  uint64_t system = montu_soc_cycles() - start_system, unit = montu_soc_unit_cycles() - start_unit;
  printf("%s err=%d system=%llu unit=%llu\n", label, error, (unsigned long long)system,
         (unsigned long long)unit);
}
static void code(const char *label, int error) { printf("%s err=%d\n", label, error); }
static void hex(const char *label, const uint8_t *x, size_t n) {
  printf("hex %s ", label);
  for (size_t i = 0; i < n; ++i) printf("%02x", x[i]);
  printf("\n");
}
static void number(const char *label, const uint64_t *x, unsigned words) {
  printf("number %s ", label);
  montu_soc_print_number(x, words);
  printf("\n");
}
static void progress(char event) { putchar(event); }

static void print_key(const char *tag, const montu_rsa_private_key *key) {
  unsigned words = (key->pub.bits + 63) / 64;
  char label[32];
  const char *names[] = {"p", "q", "dp", "dq", "qinv"};
  const uint64_t *halves[] = {key->p, key->q, key->dp, key->dq, key->qinv};
  snprintf(label, sizeof label, "%s.n", tag);
  number(label, key->pub.n, words);
  snprintf(label, sizeof label, "%s.d", tag);
  number(label, key->d, words);
  for (unsigned i = 0; i < 5; ++i) {
    snprintf(label, sizeof label, "%s.%s", tag, names[i]);
    number(label, halves[i], words / 2);
  }
}

static void load_key(montu_rsa_private_key *key, unsigned bits, const uint64_t *const parts[7],
                     const unsigned words[7]) {
  uint64_t *const to[7] = {key->pub.n, key->d, key->p, key->q, key->dp, key->dq, key->qinv};
  key->pub.bits = bits;
  key->pub.e = 65537;
  for (unsigned i = 0; i < 7; ++i) memcpy(to[i], parts[i], words[i] * sizeof(uint64_t));
}

static void load_fixed(void) {
  static const uint64_t *const parts[7] = {FN, FD, FP, FQ, FDP, FDQ, FQINV};
  static const unsigned words[7] = {16, 16, 8, 8, 8, 8, 8};
  load_key(&fixed, 1024, parts, words);
}

/* a 1000-bit key with p of 480 bits and q of 520 (p < q: m2 is longer than p); the 2048-bit
   public operations */
static void other_sizes(void) {
  static const uint64_t *const parts[7] = {UN, UD, UP, UQ, UDP, UDQ, UQINV};
  static const unsigned words[7] = {16, 16, 8, 9, 8, 9, 8};
  size_t length = 0;
  load_key(&scratch, 1000, parts, words);
  code("sign1000", montu_rsa_sign_pkcs1_sha256(signature, &scratch, DIGEST));
  hex("sign1000", signature, 125);
  code("verify1000", montu_rsa_verify_pkcs1_sha256(&scratch.pub, DIGEST, signature));
  code("encrypt1000", montu_rsa_encrypt_oaep_sha256(ciphertext, &scratch.pub, MESSAGE, sizeof MESSAGE));
  hex("encrypt1000", ciphertext, 125);
  code("decrypt1000", montu_rsa_decrypt_oaep_sha256(message, &length, sizeof message, &scratch, ciphertext));
  hex("decrypt1000", message, length);
  code("decrypt1000_openssl", montu_rsa_decrypt_oaep_sha256(message, &length, sizeof message, &scratch, CT_U_OPENSSL));
  hex("decrypt1000_openssl", message, length);
  montu_rsa_public_key big = {.bits = 2048, .e = 65537};
  memcpy(big.n, N2048, sizeof N2048);
  code("verify2048", montu_rsa_verify_pkcs1_sha256(&big, DIGEST, SIG2048_OPENSSL));
  code("verify2048_other_digest", montu_rsa_verify_pkcs1_sha256(&big, OTHER_DIGEST, SIG2048_OPENSSL));
  code("encrypt2048", montu_rsa_encrypt_oaep_sha256(ciphertext, &big, MESSAGE, sizeof MESSAGE));
  hex("encrypt2048", ciphertext, 256);
}

/* the private operation on C1 three times, then on C2 three times, from the same buffers and
   with nothing in between (printing varies the caches and predictors: it comes after) */
static void timing(void) {
  static uint64_t c[16], m[16], m1[16], system[6], unit[6], commands[6];
  static int errors[6];
  for (unsigned i = 0; i < 6; ++i) {
    memcpy(c, i < 3 ? C1 : C2, sizeof c);
    uint64_t s0 = montu_soc_cycles(), u0 = montu_soc_unit_cycles(), n0 = montu_next;
    errors[i] = montu_rsa_private(m, &fixed, c);
    system[i] = montu_soc_cycles() - s0;
    unit[i] = montu_soc_unit_cycles() - u0;
    commands[i] = montu_next - n0;
    if (i == 2) memcpy(m1, m, sizeof m);
  }
  /* nothing of the key or the message stays in the unit's registers */
  uint64_t any = 0, word[16];
  montu_cmd(MONTU_INSN(SETMMI, 0, 0, 0, 0, 16), 0);
  for (unsigned reg = 0; reg < MONTU_NUM_REGS; ++reg) {
    montu_read(reg, word, 16);
    for (unsigned i = 0; i < 16; ++i) any |= word[i];
  }
  printf("registers_after_private any=%d\n", any != 0);
  for (unsigned i = 0; i < 6; ++i)
    printf("timing%u err=%d system=%llu unit=%llu\ncommands%u %llu\n", i, errors[i],
           (unsigned long long)system[i], (unsigned long long)unit[i], i,
           (unsigned long long)commands[i]);
  number("m1", m1, 16);
  number("m2", m, 16);
}

static void error_paths(void) {
  static uint64_t x[16], m[16];
  memcpy(x, FN, sizeof x);                                    /* c = n, s = n */
  code("private_c_is_n", montu_rsa_private(m, &fixed, x));
  number("private_c_is_n_output", m, 16);
  code("public_s_is_n", montu_rsa_public(m, &fixed.pub, x));
  x[15] = ~0ull;                                              /* c > n */
  code("private_c_above_n", montu_rsa_private(m, &fixed, x));
  code("generate_256", montu_rsa_generate(&scratch, 256, 65537, NULL));
  code("generate_4104", montu_rsa_generate(&scratch, 4104, 65537, NULL));
  code("generate_1020", montu_rsa_generate(&scratch, 1020, 65537, NULL));
  code("generate_even_e", montu_rsa_generate(&scratch, 1024, 65536, NULL));
  code("generate_e_1", montu_rsa_generate(&scratch, 1024, 1, NULL));
  code("generate_null", montu_rsa_generate(NULL, 1024, 65537, NULL));
  size_t length = 0;
  code("encrypt_too_long", montu_rsa_encrypt_oaep_sha256(ciphertext, &fixed.pub, message, 128 - 65));
  code("decrypt_small_buffer", montu_rsa_decrypt_oaep_sha256(message, &length, 128 - 67, &fixed, ciphertext));
  uint8_t n_bytes[128];
  for (unsigned i = 0; i < 128; ++i) n_bytes[i] = (uint8_t)(FN[(127 - i) / 8] >> (8 * ((127 - i) % 8)));
  code("verify_s_is_n", montu_rsa_verify_pkcs1_sha256(&fixed.pub, DIGEST, n_bytes));
  code("decrypt_c_is_n", montu_rsa_decrypt_oaep_sha256(message, &length, sizeof message, &fixed, n_bytes));
  code("verify_null", montu_rsa_verify_pkcs1_sha256(&fixed.pub, DIGEST, NULL));
  scratch = fixed;
  scratch.pub.n[0] ^= 1;                                      /* an even modulus */
  code("public_even_n", montu_rsa_public(m, &scratch.pub, x));
  code("verify_even_n", montu_rsa_verify_pkcs1_sha256(&scratch.pub, DIGEST, signature));
  scratch = fixed;
  scratch.pub.bits = 1023;                                    /* bits != bit_length(n) */
  code("sign_wrong_bits", montu_rsa_sign_pkcs1_sha256(signature, &scratch, DIGEST));
  scratch = fixed;
  scratch.p[0] ^= 1;                                          /* an even p */
  code("private_even_p", montu_rsa_private(m, &scratch, C1));
  /* a fault: dp off by one bit; the check m^e = c catches it and nothing leaves */
  broken = fixed;
  broken.dp[3] ^= 1;
  memset(signature, 0xa5, sizeof signature);
  begin();
  end("sign_fault", montu_rsa_sign_pkcs1_sha256(signature, &broken, DIGEST));
  hex("sign_fault_output", signature, 128);
  memset(m, 0xa5, sizeof m);
  code("private_fault", montu_rsa_private(m, &broken, C1));
  number("private_fault_output", m, 16);
}

int main(void) {
  uint8_t sig[MONTU_RSA_MAX_BYTES];
  size_t length = 0;
  code("unseeded", montu_rsa_generate(&generated, 512, 65537, NULL));
  montu_random_seed(SEED, sizeof SEED);

  printf("progress ");
  begin();
  int error = montu_rsa_generate(&generated, 512, 65537, progress);
  printf("\n");
  end("keygen512", error);
  print_key("gen", &generated);
  begin();
  end("sign512", montu_rsa_sign_pkcs1_sha256(signature, &generated, DIGEST));
  hex("sign512", signature, 64);
  code("verify512", montu_rsa_verify_pkcs1_sha256(&generated.pub, DIGEST, signature));
  signature[40] ^= 0x10;
  code("verify512_tampered", montu_rsa_verify_pkcs1_sha256(&generated.pub, DIGEST, signature));
  code("encrypt512", montu_rsa_encrypt_oaep_sha256(ciphertext, &generated.pub, MESSAGE, 1));

  load_fixed();
  begin();
  end("sign", montu_rsa_sign_pkcs1_sha256(signature, &fixed, DIGEST));
  hex("sign", signature, 128);
  memcpy(sig, signature, 128);
  begin();
  end("verify", montu_rsa_verify_pkcs1_sha256(&fixed.pub, DIGEST, signature));
  code("verify_openssl", montu_rsa_verify_pkcs1_sha256(&fixed.pub, DIGEST, SIG_OPENSSL));
  signature[127] ^= 1;
  begin();
  end("verify_tampered", montu_rsa_verify_pkcs1_sha256(&fixed.pub, DIGEST, signature));
  code("verify_other_digest", montu_rsa_verify_pkcs1_sha256(&fixed.pub, OTHER_DIGEST, sig));

  begin();
  end("encrypt", montu_rsa_encrypt_oaep_sha256(ciphertext, &fixed.pub, MESSAGE, sizeof MESSAGE));
  hex("encrypt", ciphertext, 128);
  code("encrypt_empty", montu_rsa_encrypt_oaep_sha256(message, &fixed.pub, NULL, 0));
  hex("encrypt_empty", message, 128);
  begin();
  end("decrypt", montu_rsa_decrypt_oaep_sha256(message, &length, sizeof message, &fixed, ciphertext));
  hex("decrypt", message, length);
  code("decrypt_openssl", montu_rsa_decrypt_oaep_sha256(message, &length, sizeof message, &fixed, CT_OPENSSL));
  hex("decrypt_openssl", message, length);
  code("decrypt_openssl_long", montu_rsa_decrypt_oaep_sha256(message, &length, sizeof message, &fixed, CT_LONG));
  hex("decrypt_openssl_long", message, length);
  for (unsigned i = 0; i < BAD_COUNT; ++i) {
    char label[24];
    snprintf(label, sizeof label, "decrypt_bad%u", i);
    memset(message, 0xa5, sizeof message);
    length = 99;
    begin();
    end(label, montu_rsa_decrypt_oaep_sha256(message, &length, sizeof message, &fixed, BAD[i]));
    uint8_t any = 0;
    for (unsigned j = 0; j < sizeof message; ++j) any |= message[j];
    printf("%s_output length=%u any=%u\n", label, (unsigned)length, any);
  }
  code("decrypt_again", montu_rsa_decrypt_oaep_sha256(message, &length, sizeof message, &fixed, ciphertext));
  hex("decrypt_again", message, length);

  timing();
  other_sizes();
  error_paths();
  code("sign_after_errors", montu_rsa_sign_pkcs1_sha256(signature, &fixed, DIGEST));
  hex("sign_after_errors", signature, 128);
  montu_random_wipe();
  code("encrypt_unseeded", montu_rsa_encrypt_oaep_sha256(ciphertext, &fixed.pub, MESSAGE, 1));
  return 0;
}
"""


def _c_bytes(name: str, data: bytes) -> str:
    return f"static const uint8_t {name}[{len(data)}] = {{{', '.join(map(str, data))}}};\n"


def _bad_ciphertexts(key: rsa.RSAPrivateKey, rng: random.Random) -> list[bytes]:
    """Ciphertexts below n whose OAEP encodings are wrong in each way: Y != 0, lHash, a non-zero
    byte in PS, no 0x01 separator, and a random number."""
    numbers = key.private_numbers()
    n, d, e = numbers.public_numbers.n, numbers.d, numbers.public_numbers.e
    k = 128

    def encrypt_em(em: bytes) -> bytes:
        return pow(int.from_bytes(em, "big"), e, n).to_bytes(k, "big")

    def raw_oaep(y: int, l_hash: bytes, ps_garbage: bool, separator: int) -> bytes:
        seed = rng.randbytes(32)
        ps = bytearray(k - len(MESSAGE) - 66)
        if ps_garbage:
            ps[len(ps) // 2] = 7
        db = l_hash + bytes(ps) + bytes([separator]) + MESSAGE
        masked_db = bytes(a ^ b for a, b in zip(db, montu_padding.mgf1(seed, len(db), "sha256")))
        masked_seed = bytes(a ^ b for a, b in zip(seed, montu_padding.mgf1(masked_db, 32, "sha256")))
        return bytes([y]) + masked_seed + masked_db

    good_hash = hashlib.sha256(b"").digest()
    bad = [encrypt_em(raw_oaep(1, good_hash, False, 1)),                   # Y = 1
           encrypt_em(raw_oaep(0, hashlib.sha256(b"x").digest(), False, 1)),  # wrong lHash
           encrypt_em(raw_oaep(0, good_hash, True, 1)),                    # garbage in PS
           encrypt_em(raw_oaep(0, good_hash, False, 2)),                   # no 0x01 separator
           rng.randrange(n).to_bytes(k, "big")]                            # a random number
    assert pow(int.from_bytes(bad[0], "big"), d, n) >> (8 * 127) == 1     # Y really is 1
    return bad


def _lines(output: str) -> tuple[dict[str, tuple[int, int, int]], dict[str, int], dict[str, str], dict[str, int]]:
    timed = {m[1]: (int(m[2]), int(m[3]), int(m[4]))
             for m in re.finditer(r"^(\w+) err=(-?\d+) system=(\d+) unit=(\d+)$", output, re.M)}
    codes = {m[1]: int(m[2]) for m in re.finditer(r"^(\w+) err=(-?\d+)$", output, re.M)}
    codes.update({name: value[0] for name, value in timed.items()})
    hexes = {m[1]: m[2] for m in re.finditer(r"^hex (\w+) ?([0-9a-f]*)$", output, re.M)}
    numbers = {m[1]: parse_words(m[2]) for m in re.finditer(r"^number ([\w.]+) ([0-9a-f ]+)$", output, re.M)}
    return timed, codes, hexes, numbers


def test_rsa_firmware_against_python_and_openssl():
    rng = random.Random("fw-rsa")
    key = _fixed_key(512, 512, "fw-rsa-1024")
    odd = _fixed_key(480, 520, "fw-rsa-1000")
    big = _fixed_key(1024, 1024, "fw-rsa-2048")
    numbers = key.private_numbers()
    n, p, q = numbers.public_numbers.n, numbers.p, numbers.q
    assert p < q                                       # the firmware's own keys have p > q
    other_digest = hashlib.sha256(b"another message").digest()
    bad = _bad_ciphertexts(key, rng)
    c1, c2 = rng.randrange(n), rng.randrange(n)
    long_message = bytes(range(128 - 66))              # the longest OAEP message for 1024 bits
    arrays = "".join([
        _c_bytes("SEED", SEED), _c_bytes("DIGEST", DIGEST), _c_bytes("OTHER_DIGEST", other_digest),
        _c_bytes("MESSAGE", MESSAGE),
        c_array("FN", n, 16), c_array("FD", numbers.d, 16), c_array("FP", p, 8), c_array("FQ", q, 8),
        c_array("FDP", numbers.dmp1, 8), c_array("FDQ", numbers.dmq1, 8),
        c_array("FQINV", numbers.iqmp, 8), c_array("C1", c1, 16), c_array("C2", c2, 16),
        _c_bytes("SIG_OPENSSL", key.sign(DIGEST, PKCS1, PREHASHED)),
        _c_bytes("CT_OPENSSL", key.public_key().encrypt(MESSAGE, OAEP)),
        _c_bytes("CT_LONG", key.public_key().encrypt(long_message, OAEP)),
        f"#define BAD_COUNT {len(bad)}\n",
        *[c_array(f"U{name}", value, words) for name, value, words in (
            ("N", odd.private_numbers().public_numbers.n, 16), ("D", odd.private_numbers().d, 16),
            ("P", odd.private_numbers().p, 8), ("Q", odd.private_numbers().q, 9),
            ("DP", odd.private_numbers().dmp1, 8), ("DQ", odd.private_numbers().dmq1, 9),
            ("QINV", odd.private_numbers().iqmp, 8))],
        _c_bytes("CT_U_OPENSSL", odd.public_key().encrypt(MESSAGE, OAEP)),
        c_array("N2048", big.private_numbers().public_numbers.n, 32),
        _c_bytes("SIG2048_OPENSSL", big.sign(DIGEST, PKCS1, PREHASHED)),
        "static const uint8_t BAD[BAD_COUNT][128] = {"
        + ", ".join("{" + ", ".join(map(str, b)) + "}" for b in bad) + "};\n"])
    source = PROGRAM.replace("@ARRAYS@", arrays)
    run = soc_run.run_source("rsa_test.c", source, max_cycles=100_000_000)
    assert run.exit_code == 0, run.output
    timed, codes, hexes, values = _lines(run.output)

    # key generation: no entropy, no key; then exactly the model's key, and a valid one
    assert codes["unseeded"] == error_code("MONTU_ERR_NO_ENTROPY")
    assert codes["keygen512"] == 0
    expected, progress = _keygen_model(SEED, 512)
    assert re.search(r"^progress (\S*)$", run.output, re.M)[1] == progress
    generated = {name: values[f"gen.{name}"] for name in expected}
    assert generated == expected
    gp, gq, gn, gd = generated["p"], generated["q"], generated["n"], generated["d"]
    checker = random.Random("checker")
    assert gn == gp * gq and gn.bit_length() == 512 and gp > gq
    assert is_probable_prime(gp, checker) and is_probable_prime(gq, checker)
    assert gd * E % math.lcm(gp - 1, gq - 1) == 1 and gd > 1 << 256
    assert generated["dp"] == gd % (gp - 1) and generated["dq"] == gd % (gq - 1)
    assert generated["qinv"] * gq % gp == 1
    assert abs(gp - gq) > 1 << (256 - 100)
    # the progress string shows every kind of rejection and the 7 Miller–Rabin rounds per prime
    assert progress.count("*") == 2 and progress.count("+") == 14 and progress.count(".") >= 10

    # PKCS#1 v1.5 with the generated key: byte-equal to OpenSSL and to the Python stack's encoding
    gen_key = rsa.RSAPrivateNumbers(gp, gq, gd, generated["dp"], generated["dq"], generated["qinv"],
                                    rsa.RSAPublicNumbers(E, gn)).private_key()
    em = montu_padding.emsa_pkcs1_v15_encode_digest(DIGEST, "sha256", 64)
    assert bytes.fromhex(hexes["sign512"]) == gen_key.sign(DIGEST, PKCS1, PREHASHED)
    assert bytes.fromhex(hexes["sign512"]) == pow(int.from_bytes(em, "big"), gd, gn).to_bytes(64, "big")
    assert codes["verify512"] == 0
    assert codes["verify512_tampered"] == error_code("MONTU_ERR_RSA_SIGNATURE")
    assert codes["encrypt512"] == error_code("MONTU_ERR_RSA_KEY")   # 64 bytes < 2·32 + 2: no OAEP

    # the 1024-bit key: signatures both ways
    assert bytes.fromhex(hexes["sign"]) == key.sign(DIGEST, PKCS1, PREHASHED)
    assert codes["verify"] == codes["verify_openssl"] == 0
    assert codes["verify_tampered"] == codes["verify_other_digest"] == error_code("MONTU_ERR_RSA_SIGNATURE")

    # OAEP: the firmware's ciphertexts decrypt in OpenSSL, OpenSSL's in the firmware
    assert codes["encrypt"] == codes["encrypt_empty"] == 0
    assert key.decrypt(bytes.fromhex(hexes["encrypt"]), OAEP) == MESSAGE
    assert key.decrypt(bytes.fromhex(hexes["encrypt_empty"]), OAEP) == b""
    assert codes["decrypt"] == codes["decrypt_openssl"] == codes["decrypt_openssl_long"] == 0
    assert bytes.fromhex(hexes["decrypt"]) == bytes.fromhex(hexes["decrypt_openssl"]) == MESSAGE
    assert bytes.fromhex(hexes["decrypt_openssl_long"]) == long_message
    # bad ciphertexts: one error code, nothing in the outputs, and the library still works
    decryption = error_code("MONTU_ERR_RSA_DECRYPTION")
    for i in range(len(bad)):
        assert codes[f"decrypt_bad{i}"] == decryption, i
        assert f"decrypt_bad{i}_output length=0 any=0" in run.output
    assert codes["decrypt_again"] == 0 and bytes.fromhex(hexes["decrypt_again"]) == MESSAGE
    # the bad ones take the private operation's time and a decoding that does not stop early:
    # their unit cycles equal the good decryption's
    assert {timed[f"decrypt_bad{i}"][2] for i in range(len(bad))} == {timed["decrypt"][2]}

    # constant time: the same number of commands and the same unit cycles for both ciphertexts.
    # The SoC's cycles (after the first call, which also fetches the code) may differ by a few
    # cycles from call to call, for one ciphertext as much as between the two (once seen:
    # 145,214 / 145,203 for C1, 145,204 / 145,210 / 145,204 for C2): CVA6's caches and
    # predictors in the state the rest of this program leaves them, not the data; a standalone
    # loop over four ciphertexts gives equal counts. Bound: 32 cycles, 0.02 % of the operation.
    rounds = [timed[f"timing{i}"] for i in range(6)]
    assert all(error == 0 for error, _, _ in rounds)
    assert len({unit for _, _, unit in rounds}) == 1
    assert len(set(re.findall(r"^commands\d (\d+)$", run.output, re.M))) == 1
    assert "registers_after_private any=0" in run.output
    warm = [system for _, system, _ in rounds[1:]]
    assert max(warm) - min(warm) <= 32, rounds
    assert values["m1"] == pow(c1, numbers.d, n) and values["m2"] == pow(c2, numbers.d, n)

    # other sizes: 1000 bits (k = 125 bytes, p of 480 bits and q of 520), 2048-bit public ops
    assert odd.key_size == 1000 and odd.private_numbers().p.bit_length() == 480
    assert bytes.fromhex(hexes["sign1000"]) == odd.sign(DIGEST, PKCS1, PREHASHED)
    assert codes["sign1000"] == codes["verify1000"] == codes["encrypt1000"] == 0
    assert odd.decrypt(bytes.fromhex(hexes["encrypt1000"]), OAEP) == MESSAGE
    assert codes["decrypt1000"] == codes["decrypt1000_openssl"] == 0
    assert bytes.fromhex(hexes["decrypt1000"]) == bytes.fromhex(hexes["decrypt1000_openssl"]) == MESSAGE
    assert codes["verify2048"] == codes["encrypt2048"] == 0
    assert codes["verify2048_other_digest"] == error_code("MONTU_ERR_RSA_SIGNATURE")
    assert big.decrypt(bytes.fromhex(hexes["encrypt2048"]), OAEP) == MESSAGE

    # error paths
    rng_range, key_error = error_code("MONTU_ERR_RSA_RANGE"), error_code("MONTU_ERR_RSA_KEY")
    assert codes["private_c_is_n"] == codes["public_s_is_n"] == codes["private_c_above_n"] == rng_range
    assert values["private_c_is_n_output"] == 0
    for name in ("generate_256", "generate_4104", "generate_1020", "generate_even_e", "generate_e_1"):
        assert codes[name] == key_error, name
    assert codes["generate_null"] == codes["verify_null"] == error_code("MONTU_ERR_ARGUMENT")
    assert codes["encrypt_too_long"] == error_code("MONTU_ERR_RSA_MESSAGE")
    assert codes["decrypt_small_buffer"] == error_code("MONTU_ERR_ARGUMENT")
    assert codes["verify_s_is_n"] == codes["verify_even_n"] == error_code("MONTU_ERR_RSA_SIGNATURE")
    assert codes["decrypt_c_is_n"] == decryption
    assert codes["public_even_n"] == codes["sign_wrong_bits"] == codes["private_even_p"] == key_error
    fault = error_code("MONTU_ERR_RSA_FAULT")
    assert codes["sign_fault"] == codes["private_fault"] == fault
    assert hexes["sign_fault_output"] == "00" * 128 and values["private_fault_output"] == 0
    assert codes["sign_after_errors"] == 0 and hexes["sign_after_errors"] == hexes["sign"]
    assert codes["encrypt_unseeded"] == error_code("MONTU_ERR_NO_ENTROPY")

    # the cost of each operation (printed with -s): the unit's share of the SoC's cycles
    for name in ("keygen512", "sign512", "sign", "verify", "encrypt", "decrypt"):
        _, system, unit = timed[name]
        print(f"{name}: {system} SoC cycles, unit {unit} ({100 * unit / system:.0f} %)")
    print(f"private operation, warm calls: {warm} SoC cycles")
