"""`montu genkey|pubkey|sign|verify|encrypt|decrypt|derive`: RSA and EC keys on the unit.

The contract (README): keys and signatures are what OpenSSL reads and writes; `verify` exits 0
for a valid signature and 1 for an invalid one; any bad input ends with one readable line on
stderr and exit status 2, and leaves no output file behind (keyfiles writes atomically).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from montu.cli import keyfiles
from montu.cli.options import (add_unit_options, make_unit, open_engine, other_engine,
                               positive_integer, report_stats, warn_not_constant_time)
from montu.errors import MontuError

HASHES = ("sha1", "sha224", "sha256", "sha384", "sha512")
DEFAULT_HASH = "sha256"


def register(commands: argparse._SubParsersAction) -> None:
    genkey = commands.add_parser("genkey", help="generate a key on the unit (PEM)")
    kinds = genkey.add_subparsers(dest="kind", required=True)
    rsa = kinds.add_parser("rsa", help="RSA key: primes, d and CRT values all computed on the unit")
    rsa.add_argument("--bits", type=positive_integer, default=2048, help="modulus size (multiple of 8; default 2048)")
    rsa.add_argument("--e", type=positive_integer, default=65537, help="public exponent (default 65537)")
    rsa.add_argument("--format", choices=("pkcs8", "pkcs1"), default="pkcs8",
                     help="PRIVATE KEY (pkcs8, as openssl genpkey) or RSA PRIVATE KEY (pkcs1)")
    rsa.add_argument("-q", "--quiet", action="store_true", help="no progress dots on stderr")
    _output(rsa)
    add_unit_options(rsa)
    rsa.set_defaults(func=_genkey_rsa)
    ec = kinds.add_parser("ec", help="EC key on a named curve (OpenSSL names: prime256v1, sect283k1, ...)")
    ec.add_argument("--curve", required=True, help="curve name, e.g. prime256v1, P-384, sect283k1")
    ec.add_argument("--format", choices=("sec1", "pkcs8"), default="sec1",
                    help="EC PRIVATE KEY (sec1, as openssl ecparam -genkey) or PRIVATE KEY (pkcs8)")
    _output(ec)
    add_unit_options(ec)
    ec.set_defaults(func=_genkey_ec)

    pubkey = commands.add_parser("pubkey", help="write the public half of a key (SubjectPublicKeyInfo PEM)")
    _key(pubkey)
    _output(pubkey)
    add_unit_options(pubkey)
    pubkey.set_defaults(func=_pubkey)

    sign = commands.add_parser("sign", help="sign a file (RSA PKCS#1 v1.5 / PSS, or ECDSA) like openssl dgst -sign")
    _key(sign)
    sign.add_argument("-i", "--in", dest="input", required=True, help="message file ('-': stdin)")
    _output(sign)
    _hash(sign)
    sign.add_argument("--pss", action="store_true",
                      help="RSA-PSS (MGF1 same hash, salt = digest length); RSA-PSS keys always "
                           "sign with PSS, with their own hash and salt length")
    sign.add_argument("--deterministic", action="store_true", help="ECDSA: RFC 6979 nonces")
    add_unit_options(sign)
    sign.set_defaults(func=_sign)

    verify = commands.add_parser("verify", help="verify a signature: exit 0 valid, 1 invalid")
    _key(verify)
    verify.add_argument("-i", "--in", dest="input", required=True, help="message file ('-': stdin)")
    verify.add_argument("-s", "--signature", required=True, help="signature file")
    _hash(verify)
    verify.add_argument("--pss", action="store_true",
                        help="RSA-PSS (salt length recovered); always for RSA-PSS keys")
    add_unit_options(verify)
    verify.set_defaults(func=_verify)

    encrypt = commands.add_parser("encrypt", help="RSA-OAEP encryption (as openssl pkeyutl -encrypt, oaep)")
    _key(encrypt)
    encrypt.add_argument("-i", "--in", dest="input", required=True, help="plaintext file ('-': stdin)")
    _output(encrypt)
    _hash(encrypt, help_text="OAEP and MGF1 hash (default sha256)")
    add_unit_options(encrypt)
    encrypt.set_defaults(func=_encrypt)

    decrypt = commands.add_parser("decrypt", help="RSA-OAEP decryption")
    _key(decrypt)
    decrypt.add_argument("-i", "--in", dest="input", required=True, help="ciphertext file ('-': stdin)")
    _output(decrypt)
    _hash(decrypt, help_text="OAEP and MGF1 hash (default sha256)")
    add_unit_options(decrypt)
    decrypt.set_defaults(func=_decrypt)

    derive = commands.add_parser("derive", help="ECDH: the shared x coordinate, as openssl pkeyutl -derive")
    _key(derive)
    derive.add_argument("--peer", required=True, help="the peer's public key (PEM/DER)")
    _output(derive)
    add_unit_options(derive)
    derive.set_defaults(func=_derive)


def _key(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-k", "--key", required=True, help="key file (PEM or DER)")


def _output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--out", default=None, help="output file (default: stdout)")


def _hash(parser: argparse.ArgumentParser, help_text: str = "message digest (default sha256)") -> None:
    # default None: "not given", so an RSA-PSS key restricted to one hash can supply its own
    parser.add_argument("--hash", choices=HASHES, default=None, help=help_text)


def _hash_for(args: argparse.Namespace, key: object) -> str:
    """--hash, or the hash an RSA-PSS key is restricted to, or sha256."""
    restriction = getattr(key, "pss_restriction", None)
    if args.hash is None:
        return restriction.hash if restriction is not None and restriction.hash else DEFAULT_HASH
    return str(args.hash)


def _uses_pss(args: argparse.Namespace, key: object) -> bool:
    """--pss, or always for an RSA-PSS key (as `openssl dgst` signs with one)."""
    return bool(args.pss) or bool(getattr(key, "pss_only", False))


def _timed(args: argparse.Namespace, unit, what: str, action: Callable[[], object]) -> object:
    start_cycles, start = unit.total_cycles, time.perf_counter()
    result = action()
    report_stats(args, what, unit.total_cycles - start_cycles, time.perf_counter() - start)
    return result


def _timed_key(args: argparse.Namespace, key, what: str, action: Callable[[], object]) -> object:
    """`action` (one operation of `key`) with --stats: the unit's cycle counter, or the engine
    cycles the key counted (its last_cycles) when it runs on another engine."""
    if getattr(key, "engine", None) is None:
        return _timed(args, key.unit, what, action)
    start = time.perf_counter()
    result = action()
    report_stats(args, what, key.last_cycles, time.perf_counter() - start)
    return result


class _Hardware:
    """What a key command runs on: the bie2021 unit, or --engine (opened for each key's size;
    no unit is made then)."""

    def __init__(self, args: argparse.Namespace, command: str):
        self.args = args
        self.engine = other_engine(args, command)
        self.unit = make_unit(args) if self.engine is None else None

    def load_key(self, path: str):
        if self.engine is None:
            return keyfiles.load_key(path, self.unit)
        return keyfiles.load_key(path, None, engine_for_bits=lambda bits: open_engine(self.args, bits),
                                 engine_name=self.engine.name)


# ------------------------------------------------------------------ commands
def _genkey_rsa(args: argparse.Namespace) -> int:
    import montu.rsa

    unit = _Hardware(args, "genkey").unit

    def progress(event: str) -> None:
        if not args.quiet:
            sys.stderr.write(event)
            sys.stderr.flush()

    key = _timed(args, unit, f"RSA-{args.bits} key generation",
                 lambda: montu.rsa.generate(args.bits, e=args.e, unit=unit, progress=progress))
    if not args.quiet:
        sys.stderr.write("\n")
    keyfiles.write_output(args.out, key.to_pem(fmt=args.format), private=True)
    return 0


def _genkey_ec(args: argparse.Namespace) -> int:
    import montu.ec

    unit = _Hardware(args, "genkey").unit
    curve = montu.ec.get_curve(args.curve)
    key = _timed(args, unit, f"{curve.name} key generation", lambda: montu.ec.generate(curve, unit=unit))
    keyfiles.write_output(args.out, key.to_pem(fmt=args.format), private=True)
    return 0


def _pubkey(args: argparse.Namespace) -> int:
    key = _Hardware(args, "pubkey").load_key(args.key)
    public = key.public_key() if keyfiles.is_private(key) else key
    keyfiles.write_output(args.out, public.to_pem())
    return 0


def _private_key(args: argparse.Namespace, hardware: _Hardware, what: str):
    key = hardware.load_key(args.key)
    if not keyfiles.is_private(key):
        raise MontuError(f"{args.key}: {what} needs a private key, this is a public key")
    return key


def _sign(args: argparse.Namespace) -> int:
    hardware = _Hardware(args, "sign")
    keyfiles.refuse_two_stdin_inputs({"-k/--key": args.key, "-i/--in": args.input})
    key = _private_key(args, hardware, "sign")
    message = keyfiles.read_input(args.input, what="message")
    hash_name = _hash_for(args, key)
    if keyfiles.is_rsa(key):
        if args.deterministic:
            raise MontuError("--deterministic is for ECDSA keys; RSA signatures are deterministic "
                             "(v1.5) or salted (PSS)")
        pss = _uses_pss(args, key)
        warn_not_constant_time(args, hardware.engine)
        signature = _timed_key(args, key, "RSA sign", lambda: key.sign(message, hash_name, pss=pss))
    else:
        if args.pss:
            raise MontuError("--pss is for RSA keys; this is an EC key (ECDSA)")
        signature = _timed(args, key.unit, "ECDSA sign",
                           lambda: key.sign(message, hash_name, deterministic=args.deterministic))
    keyfiles.write_output(args.out, signature)
    return 0


def _verify(args: argparse.Namespace) -> int:
    hardware = _Hardware(args, "verify")
    keyfiles.refuse_two_stdin_inputs({"-k/--key": args.key, "-i/--in": args.input,
                                      "-s/--signature": args.signature})
    key = hardware.load_key(args.key)
    if keyfiles.is_private(key):       # a private key file verifies with its public half
        key = key.public_key()
    message = keyfiles.read_input(args.input, what="message")
    signature = keyfiles.read_signature(args.signature)
    hash_name = _hash_for(args, key)
    if keyfiles.is_rsa(key):
        pss = _uses_pss(args, key)
        ok = _timed_key(args, key, "RSA verify", lambda: key.verify(signature, message, hash_name, pss=pss))
    else:
        if args.pss:
            raise MontuError("--pss is for RSA keys; this is an EC key (ECDSA)")
        ok = _timed(args, key.unit, "ECDSA verify", lambda: key.verify(signature, message, hash_name))
    keyfiles.print_line("Verified OK" if ok else "Verification failure")
    return 0 if ok else 1


def _encrypt(args: argparse.Namespace) -> int:
    hardware = _Hardware(args, "encrypt")
    keyfiles.refuse_two_stdin_inputs({"-k/--key": args.key, "-i/--in": args.input})
    key = hardware.load_key(args.key)
    if not keyfiles.is_rsa(key):
        raise MontuError(f"{args.key}: encrypt needs an RSA key (EC encryption is not supported)")
    message = keyfiles.read_input(args.input, what="plaintext")
    hash_name = _hash_for(args, None)
    ciphertext = _timed_key(args, key, "RSA-OAEP encrypt", lambda: key.encrypt(message, hash_name))
    keyfiles.write_output(args.out, ciphertext)
    return 0


def _decrypt(args: argparse.Namespace) -> int:
    hardware = _Hardware(args, "decrypt")
    keyfiles.refuse_two_stdin_inputs({"-k/--key": args.key, "-i/--in": args.input})
    key = _private_key(args, hardware, "decrypt")
    if not keyfiles.is_rsa(key):
        raise MontuError(f"{args.key}: decrypt needs an RSA private key")
    ciphertext = keyfiles.read_input(args.input, what="ciphertext")
    hash_name = _hash_for(args, None)
    warn_not_constant_time(args, hardware.engine)
    plaintext = _timed_key(args, key, "RSA-OAEP decrypt", lambda: key.decrypt(ciphertext, hash_name))
    keyfiles.write_output(args.out, plaintext)
    return 0


def _derive(args: argparse.Namespace) -> int:
    hardware = _Hardware(args, "derive")
    if hardware.engine is not None:
        return _derive_on_engine(args)
    unit = hardware.unit
    keyfiles.refuse_two_stdin_inputs({"-k/--key": args.key, "--peer": args.peer})
    key = _private_key(args, hardware, "derive")
    if keyfiles.is_rsa(key):
        raise MontuError(f"{args.key}: derive (ECDH) needs an EC private key, this is RSA")
    peer = keyfiles.load_key(args.peer, unit)
    if keyfiles.is_rsa(peer):
        raise MontuError(f"{args.peer}: the peer key is RSA, ECDH needs an EC public key")
    if keyfiles.is_private(peer):
        peer = peer.public_key()
    secret = _timed(args, key.unit, "ECDH derive", lambda: key.exchange(peer))
    keyfiles.write_output(args.out, secret)
    return 0


def _derive_on_engine(args: argparse.Namespace) -> int:
    """ECDH on an engine that does EC point multiplication itself (antao): d·Q_peer with the
    peer's point validated on the curve, the result checked on the curve before its x is
    released (a fault gives no output)."""
    from montu.arith.antao_ec import Curve as PrimeCurve
    from montu.arith.antao_ec import is_on_curve
    from montu.arith.field import Field
    from montu.ec.curves import curve_by_oid

    keyfiles.refuse_two_stdin_inputs({"-k/--key": args.key, "--peer": args.peer})
    mine = keyfiles.load_ec_numbers(args.key, private=True)
    peer = keyfiles.load_ec_numbers(args.peer, private=False)
    curve, peer_curve = curve_by_oid(mine.curve_oid), curve_by_oid(peer.curve_oid)
    if curve is None or peer_curve is None:   # load_key already refuses unknown curves
        raise MontuError("unknown elliptic curve")
    if peer_curve != curve:
        raise MontuError(f"{args.peer}: the peer key is on {peer_curve.name}, this key on {curve.name}")
    if curve.field != Field.GFP:
        raise MontuError(f"the {args.engine} engine does ECDH over GF(p) only; {curve.name} is a "
                         "binary curve (use --engine bie2021)")
    point = peer.public
    if point is None:
        raise MontuError(f"{args.peer}: the key has no public point")
    if not isinstance(point, tuple):
        raise MontuError(f"{args.peer}: the {args.engine} engine needs the peer's point "
                         "uncompressed")
    prime = PrimeCurve(curve.modulus, curve.a, curve.b)
    if curve.h != 1 or not is_on_curve(point, prime):
        raise MontuError(f"{args.peer}: the peer's point is not on {curve.name}")
    if not 1 <= mine.private < curve.n:
        raise MontuError(f"{args.key}: the private key is not in [1, n - 1] for {curve.name}")
    engine = open_engine(args, curve.modulus.bit_length())
    start = time.perf_counter()
    shared = engine.scalar_mult(prime, mine.private, point)
    report_stats(args, "ECDH derive", engine.last_cycles, time.perf_counter() - start)
    if shared is None:
        raise MontuError("the shared point is the point at infinity (a bad peer key)")
    if not is_on_curve(shared, prime):
        raise MontuError(f"the {args.engine} engine's result is not on {curve.name}: a fault; "
                         "nothing is released")
    keyfiles.write_output(args.out, shared[0].to_bytes(curve.field_bytes, "big"))
    return 0
