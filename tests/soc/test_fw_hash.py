"""The firmware's SHA-256, HMAC-SHA-256 and Hash_DRBG (fw/lib/sha256.c, fw/lib/random.c) on the
SoC, against Python's hashlib/hmac and a Hash_DRBG written here from SP 800-90A §10.1.1."""

from __future__ import annotations

import hashlib
import hmac
import re

from montu.soc import run as soc_run

from drbg_model import HashDrbg

# Lengths around the padding's edges (55/56/64 bytes) and a multi-block message.
MESSAGE_LENGTHS = (0, 3, 55, 56, 63, 64, 65, 119, 1000)
KEY_LENGTHS = (0, 20, 64, 65, 131)
SEED = bytes(range(48))


def _message(length: int) -> bytes:
    return bytes((7 * i + 1) & 0xFF for i in range(length))


def _drbg(seed: bytes, requests: list[int]) -> list[bytes]:
    """The model's output for the requests; a request of 0 bytes stands for a reseed with the
    same seed."""
    drbg, out = HashDrbg(seed), []
    for length in requests:
        if length == 0:
            drbg.reseed(seed)
        else:
            out.append(drbg.generate(length))
    return out


PROGRAM = """\
#include <stdio.h>
#include "montu.h"
#include "montu_hash.h"
#include "montu_random.h"
static uint8_t buffer[1000], key[131];
static void hex(const char *label, const uint8_t *x, size_t n) {
  printf("%s ", label);
  for (size_t i = 0; i < n; ++i) printf("%02x", x[i]);
  printf("\\n");
}
int main(void) {
  static const unsigned lengths[] = {@LENGTHS@}, keys[] = {@KEYS@}, requests[] = {@REQUESTS@};
  for (unsigned i = 0; i < sizeof buffer; ++i) buffer[i] = (uint8_t)(7 * i + 1);
  for (unsigned i = 0; i < sizeof key; ++i) key[i] = (uint8_t)(3 * i + 5);
  uint8_t digest[MONTU_SHA256_BYTES], out[100];
  for (unsigned i = 0; i < sizeof lengths / sizeof lengths[0]; ++i) {
    montu_sha256(digest, buffer, lengths[i]);
    hex("sha256", digest, sizeof digest);
  }
  montu_sha256_ctx ctx;                        /* the same message in uneven pieces */
  montu_sha256_init(&ctx);
  for (unsigned at = 0, step = 1; at < 1000; at += step, step = step * 2 % 97 + 1)
    montu_sha256_update(&ctx, buffer + at, at + step > 1000 ? 1000 - at : step);
  montu_sha256_final(&ctx, digest);
  hex("pieces", digest, sizeof digest);
  for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
    montu_hmac_sha256(digest, key, keys[i], buffer, 100);
    hex("hmac", digest, sizeof digest);
  }
  printf("unseeded %d\\n", montu_random_bytes(out, 4));
  printf("short %d\\n", montu_random_seed(buffer, MONTU_RANDOM_MIN_ENTROPY - 1));
  static const uint8_t seed[48] = {@SEED@};
  printf("seed %d\\n", montu_random_seed(seed, sizeof seed));
  for (unsigned i = 0; i < sizeof requests / sizeof requests[0]; ++i) {
    if (requests[i] == 0) {                    /* reseed */
      if (montu_random_seed(seed, sizeof seed)) return 3;
      continue;
    }
    montu_random_bytes(out, requests[i]);
    hex("drbg", out, requests[i]);
  }
  uint64_t bound[2] = {5, 0}, x[2], seen = 0;
  for (unsigned i = 0; i < 64; ++i) {
    if (montu_random_below(x, bound, 2) || x[1] || x[0] == 0 || x[0] >= 5) return 2;
    seen |= 1u << x[0];
  }
  printf("below %llu\\n", (unsigned long long)seen);
  uint64_t one[1] = {1};
  printf("below_one %d %llu\\n", montu_random_below(x, one, 1), (unsigned long long)x[0]);
  return 0;
}
"""


def test_sha256_hmac_and_drbg_match_python():
    requests = [32, 1, 33, 100, 0, 32]
    source = (PROGRAM.replace("@LENGTHS@", ", ".join(map(str, MESSAGE_LENGTHS)))
              .replace("@KEYS@", ", ".join(map(str, KEY_LENGTHS)))
              .replace("@REQUESTS@", ", ".join(map(str, requests)))
              .replace("@SEED@", ", ".join(map(str, SEED))))
    run = soc_run.run_source("hash_test.c", source, max_cycles=20_000_000)
    assert run.exit_code == 0, run.output
    values: dict[str, list[str]] = {}
    for label, value in re.findall(r"^(\w+) (\S+)$", run.output, re.M):
        values.setdefault(label, []).append(value)
    assert values["sha256"] == [hashlib.sha256(_message(n)).hexdigest() for n in MESSAGE_LENGTHS]
    assert values["pieces"] == [hashlib.sha256(_message(1000)).hexdigest()]
    key = bytes((3 * i + 5) & 0xFF for i in range(131))
    assert values["hmac"] == [hmac.new(key[:n], _message(100), "sha256").hexdigest() for n in KEY_LENGTHS]
    assert values["unseeded"] == ["20"]                  # MONTU_ERR_NO_ENTROPY
    assert values["short"] == ["16"]                     # MONTU_ERR_ARGUMENT
    assert values["seed"] == ["0"]
    assert values["drbg"] == [chunk.hex() for chunk in _drbg(SEED, requests)]
    assert len(values["drbg"]) == 5 and len(set(values["drbg"])) == 5
    assert values["below"] == [str(0b11110)]             # every value in [1, 5) drawn, nothing else
    assert re.search(r"^below_one 16 0$", run.output, re.M)
