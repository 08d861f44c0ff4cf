"""The named elliptic curves Montu supports: standard domain parameters, OpenSSL names, OIDs.

Every curve is one `Curve(...)` entry in `CURVES` below; adding a curve is adding an entry (the
arithmetic is chosen by the field). Parameters are those of SEC 2 v2 / FIPS 186-4 (D.1), as
OpenSSL prints them (`openssl ecparam -name NAME -param_enc explicit -text -noout`);
tests/ec/test_ec_curves.py checks them against OpenSSL and the algebra (G on the curve, n·G = O).

Prime curves: y² = x³ + a·x + b over GF(p), `modulus` = p.
Binary curves: y² + x·y = x³ + a·x² + b over GF(2^m), `modulus` = the reduction polynomial f(x)
(bit i = coefficient of x^i), m = deg f.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from montu.arith import gf2m
from montu.arith.field import Field
from montu.errors import MontuError


class UnknownCurve(MontuError, ValueError):
    """The curve name or OID is not one Montu supports."""


@dataclass(frozen=True)
class Curve:
    """Domain parameters of one named curve (OpenSSL name, dotted OID, field, a, b, G, n, h)."""

    name: str
    oid: str
    field: Field
    modulus: int
    a: int
    b: int
    gx: int
    gy: int
    n: int
    h: int
    aliases: tuple[str, ...] = field(default=())

    @property
    def is_binary(self) -> bool:
        return self.field is Field.GF2M

    @property
    def bits(self) -> int:
        """Field size in bits: bits(p) for GF(p), m for GF(2^m)."""
        return gf2m.degree(self.modulus) if self.is_binary else self.modulus.bit_length()

    @property
    def field_bytes(self) -> int:
        """Bytes of one coordinate (and of an ECDH shared secret), as OpenSSL writes them."""
        return (self.bits + 7) // 8

    @property
    def order_bits(self) -> int:
        return self.n.bit_length()

    @property
    def order_bytes(self) -> int:
        return (self.order_bits + 7) // 8

    @property
    def generator(self) -> tuple[int, int]:
        return (self.gx, self.gy)

    def __str__(self) -> str:
        return self.name


CURVES_LIST: tuple[Curve, ...] = (
    Curve(name="prime192v1", oid="1.2.840.10045.3.1.1", field=Field.GFP,
          modulus=0xfffffffffffffffffffffffffffffffeffffffffffffffff,
          a=0xfffffffffffffffffffffffffffffffefffffffffffffffc,
          b=0x64210519e59c80e70fa7e9ab72243049feb8deecc146b9b1,
          gx=0x188da80eb03090f67cbf20eb43a18800f4ff0afd82ff1012,
          gy=0x7192b95ffc8da78631011ed6b24cdd573f977a11e794811,
          n=0xffffffffffffffffffffffff99def836146bc9b1b4d22831, h=1,
          aliases=("P-192", "secp192r1")),
    Curve(name="secp224r1", oid="1.3.132.0.33", field=Field.GFP,
          modulus=0xffffffffffffffffffffffffffffffff000000000000000000000001,
          a=0xfffffffffffffffffffffffffffffffefffffffffffffffffffffffe,
          b=0xb4050a850c04b3abf54132565044b0b7d7bfd8ba270b39432355ffb4,
          gx=0xb70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21,
          gy=0xbd376388b5f723fb4c22dfe6cd4375a05a07476444d5819985007e34,
          n=0xffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d, h=1,
          aliases=("P-224",)),
    Curve(name="prime256v1", oid="1.2.840.10045.3.1.7", field=Field.GFP,
          modulus=0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff,
          a=0xffffffff00000001000000000000000000000000fffffffffffffffffffffffc,
          b=0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b,
          gx=0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296,
          gy=0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5,
          n=0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551, h=1,
          aliases=("P-256", "secp256r1")),
    Curve(name="secp384r1", oid="1.3.132.0.34", field=Field.GFP,
          modulus=0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff,
          a=0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000fffffffc,
          b=0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef,
          gx=0xaa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7,
          gy=0x3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f,
          n=0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973, h=1,
          aliases=("P-384",)),
    Curve(name="secp521r1", oid="1.3.132.0.35", field=Field.GFP,
          modulus=0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff,
          a=0x1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc,
          b=0x51953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00,
          gx=0xc6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66,
          gy=0x11839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650,
          n=0x1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409, h=1,
          aliases=("P-521",)),
    Curve(name="secp256k1", oid="1.3.132.0.10", field=Field.GFP,
          modulus=0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f,
          a=0x0,
          b=0x7,
          gx=0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798,
          gy=0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8,
          n=0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141, h=1,
          aliases=()),
    Curve(name="sect163k1", oid="1.3.132.0.1", field=Field.GF2M,
          modulus=0x800000000000000000000000000000000000000c9,
          a=0x1,
          b=0x1,
          gx=0x2fe13c0537bbc11acaa07d793de4e6d5e5c94eee8,
          gy=0x289070fb05d38ff58321f2e800536d538ccdaa3d9,
          n=0x4000000000000000000020108a2e0cc0d99f8a5ef, h=2,
          aliases=("K-163",)),
    Curve(name="sect163r2", oid="1.3.132.0.15", field=Field.GF2M,
          modulus=0x800000000000000000000000000000000000000c9,
          a=0x1,
          b=0x20a601907b8c953ca1481eb10512f78744a3205fd,
          gx=0x3f0eba16286a2d57ea0991168d4994637e8343e36,
          gy=0xd51fbc6c71a0094fa2cdd545b11c5c0c797324f1,
          n=0x40000000000000000000292fe77e70c12a4234c33, h=2,
          aliases=("B-163",)),
    Curve(name="sect233k1", oid="1.3.132.0.26", field=Field.GF2M,
          modulus=0x20000000000000000000000000000000000000004000000000000000001,
          a=0x0,
          b=0x1,
          gx=0x17232ba853a7e731af129f22ff4149563a419c26bf50a4c9d6eefad6126,
          gy=0x1db537dece819b7f70f555a67c427a8cd9bf18aeb9b56e0c11056fae6a3,
          n=0x8000000000000000000000000000069d5bb915bcd46efb1ad5f173abdf, h=4,
          aliases=("K-233",)),
    Curve(name="sect233r1", oid="1.3.132.0.27", field=Field.GF2M,
          modulus=0x20000000000000000000000000000000000000004000000000000000001,
          a=0x1,
          b=0x66647ede6c332c7f8c0923bb58213b333b20e9ce4281fe115f7d8f90ad,
          gx=0xfac9dfcbac8313bb2139f1bb755fef65bc391f8b36f8f8eb7371fd558b,
          gy=0x1006a08a41903350678e58528bebf8a0beff867a7ca36716f7e01f81052,
          n=0x1000000000000000000000000000013e974e72f8a6922031d2603cfe0d7, h=2,
          aliases=("B-233",)),
    Curve(name="sect283k1", oid="1.3.132.0.16", field=Field.GF2M,
          modulus=0x800000000000000000000000000000000000000000000000000000000000000000010a1,
          a=0x0,
          b=0x1,
          gx=0x503213f78ca44883f1a3b8162f188e553cd265f23c1567a16876913b0c2ac2458492836,
          gy=0x1ccda380f1c9e318d90f95d07e5426fe87e45c0e8184698e45962364e34116177dd2259,
          n=0x1ffffffffffffffffffffffffffffffffffe9ae2ed07577265dff7f94451e061e163c61, h=4,
          aliases=("K-283",)),
    Curve(name="sect283r1", oid="1.3.132.0.17", field=Field.GF2M,
          modulus=0x800000000000000000000000000000000000000000000000000000000000000000010a1,
          a=0x1,
          b=0x27b680ac8b8596da5a4af8a19a0303fca97fd7645309fa2a581485af6263e313b79a2f5,
          gx=0x5f939258db7dd90e1934f8c70b0dfec2eed25b8557eac9c80e2e198f8cdbecd86b12053,
          gy=0x3676854fe24141cb98fe6d4b20d02b4516ff702350eddb0826779c813f0df45be8112f4,
          n=0x3ffffffffffffffffffffffffffffffffffef90399660fc938a90165b042a7cefadb307, h=2,
          aliases=("B-283",)),
    Curve(name="sect409k1", oid="1.3.132.0.36", field=Field.GF2M,
          modulus=0x2000000000000000000000000000000000000000000000000000000000000000000000000000000008000000000000000000001,
          a=0x0,
          b=0x1,
          gx=0x60f05f658f49c1ad3ab1890f7184210efd0987e307c84c27accfb8f9f67cc2c460189eb5aaaa62ee222eb1b35540cfe9023746,
          gy=0x1e369050b7c4e42acba1dacbf04299c3460782f918ea427e6325165e9ea10e3da5f6c42e9c55215aa9ca27a5863ec48d8e0286b,
          n=0x7ffffffffffffffffffffffffffffffffffffffffffffffffffe5f83b2d4ea20400ec4557d5ed3e3e7ca5b4b5c83b8e01e5fcf, h=4,
          aliases=("K-409",)),
    Curve(name="sect409r1", oid="1.3.132.0.37", field=Field.GF2M,
          modulus=0x2000000000000000000000000000000000000000000000000000000000000000000000000000000008000000000000000000001,
          a=0x1,
          b=0x21a5c2c8ee9feb5c4b9a753b7b476b7fd6422ef1f3dd674761fa99d6ac27c8a9a197b272822f6cd57a55aa4f50ae317b13545f,
          gx=0x15d4860d088ddb3496b0c6064756260441cde4af1771d4db01ffe5b34e59703dc255a868a1180515603aeab60794e54bb7996a7,
          gy=0x61b1cfab6be5f32bbfa78324ed106a7636b9c5a7bd198d0158aa4f5488d08f38514f1fdf4b4f40d2181b3681c364ba0273c706,
          n=0x10000000000000000000000000000000000000000000000000001e2aad6a612f33307be5fa47c3c9e052f838164cd37d9a21173, h=2,
          aliases=("B-409",)),
    Curve(name="sect571k1", oid="1.3.132.0.38", field=Field.GF2M,
          modulus=0x80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000425,
          a=0x0,
          b=0x1,
          gx=0x26eb7a859923fbc82189631f8103fe4ac9ca2970012d5d46024804801841ca44370958493b205e647da304db4ceb08cbbd1ba39494776fb988b47174dca88c7e2945283a01c8972,
          gy=0x349dc807f4fbf374f4aeade3bca95314dd58cec9f307a54ffc61efc006d8a2c9d4979c0ac44aea74fbebbb9f772aedcb620b01a7ba7af1b320430c8591984f601cd4c143ef1c7a3,
          n=0x20000000000000000000000000000000000000000000000000000000000000000000000131850e1f19a63e4b391a8db917f4138b630d84be5d639381e91deb45cfe778f637c1001, h=4,
          aliases=("K-571",)),
    Curve(name="sect571r1", oid="1.3.132.0.39", field=Field.GF2M,
          modulus=0x80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000425,
          a=0x1,
          b=0x2f40e7e2221f295de297117b7f3d62f5c6a97ffcb8ceff1cd6ba8ce4a9a18ad84ffabbd8efa59332be7ad6756a66e294afd185a78ff12aa520e4de739baca0c7ffeff7f2955727a,
          gx=0x303001d34b856296c16c0d40d3cd7750a93d1d2955fa80aa5f40fc8db7b2abdbde53950f4c0d293cdd711a35b67fb1499ae60038614f1394abfa3b4c850d927e1e7769c8eec2d19,
          gy=0x37bf27342da639b6dccfffeb73d69d78c6c27a6009cbbca1980f8533921e8a684423e43bab08a576291af8f461bb2a8b3531d2f0485c19b16e2f1516e23dd3c1a4827af1b8ac15b,
          n=0x3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe661ce18ff55987308059b186823851ec7dd9ca1161de93d5174d66e8382e9bb2fe84e47, h=2,
          aliases=("B-571",)),
)

CURVES: dict[str, Curve] = {c.name: c for c in CURVES_LIST}
_BY_NAME: dict[str, Curve] = {alias.lower(): c for c in CURVES_LIST for alias in (c.name, *c.aliases)}
_BY_OID: dict[str, Curve] = {c.oid: c for c in CURVES_LIST}


def curve_names() -> list[str]:
    """The OpenSSL names of every supported curve, in table order."""
    return [c.name for c in CURVES_LIST]


def get_curve(name: str | Curve) -> Curve:
    """The curve called `name` (OpenSSL name or alias such as P-256, secp256r1, K-283, B-283)."""
    if isinstance(name, Curve):
        return name
    curve = _BY_NAME.get(str(name).strip().lower())
    if curve is None:
        raise UnknownCurve(f"unknown elliptic curve {name!r}; Montu supports "
                           + ", ".join(f"{c.name} ({'/'.join(c.aliases)})" if c.aliases else c.name
                                       for c in CURVES_LIST))
    return curve


def curve_by_oid(oid: str) -> Curve | None:
    """The curve with dotted OID `oid`, or None if Montu does not support it."""
    return _BY_OID.get(oid)
