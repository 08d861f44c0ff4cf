#!/bin/sh
# Regenerates the OpenSSL-written key files that tests/ec/test_ec_encoding.py reads.
# Written once with OpenSSL 3.0.19; run from this directory: sh regenerate.sh
set -eu
for pair in P-192:prime192v1 P-224:secp224r1 P-256:prime256v1 P-384:secp384r1 P-521:secp521r1 \
            K-163:sect163k1 K-233:sect233k1 K-283:sect283k1 K-409:sect409k1 K-571:sect571k1 \
            B-163:sect163r2 B-233:sect233r1 B-283:sect283r1 B-409:sect409r1 B-571:sect571r1 \
            secp256k1:secp256k1; do
  name=${pair%%:*}; ossl=${pair#*:}
  openssl ecparam -name "$ossl" -genkey -noout -out "$name.sec1.pem"          # SEC1 EC PRIVATE KEY
  openssl genpkey -algorithm EC -pkeyopt "ec_paramgen_curve:$ossl" -out "$name.pkcs8.pem"  # PKCS#8
  openssl ec -in "$name.sec1.pem" -pubout -out "$name.pub.pem" 2>/dev/null   # SubjectPublicKeyInfo
  openssl pkey -in "$name.sec1.pem" -text -noout > "$name.sec1.txt"
  openssl pkey -in "$name.pkcs8.pem" -text -noout > "$name.pkcs8.txt"
done
# Inputs Montu must reject
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out bad.rsa.pkcs8.pem
openssl rsa -in bad.rsa.pkcs8.pem -traditional -out bad.rsa.pkcs1.pem 2>/dev/null
openssl rsa -in bad.rsa.pkcs8.pem -pubout -out bad.rsa.pub.pem 2>/dev/null
openssl ec -in P-256.sec1.pem -param_enc explicit -out bad.explicit.sec1.pem 2>/dev/null
openssl ec -in P-256.sec1.pem -param_enc explicit -pubout -out bad.explicit.pub.pem 2>/dev/null
openssl ec -in K-283.sec1.pem -conv_form compressed -pubout -out K-283.compressed.pub.pem 2>/dev/null
openssl ec -in K-283.sec1.pem -conv_form compressed -out K-283.compressed.sec1.pem 2>/dev/null
openssl ecparam -name brainpoolP256r1 -genkey -noout -out bad.brainpool.sec1.pem
openssl ec -in bad.brainpool.sec1.pem -pubout -out bad.brainpool.pub.pem 2>/dev/null
openssl pkcs8 -topk8 -in P-256.sec1.pem -passout pass:montu -out bad.encrypted.pkcs8.pem
openssl genpkey -algorithm ed25519 -out bad.ed25519.pkcs8.pem
# ECDSA signatures written by OpenSSL (DER Ecdsa-Sig-Value), over message.txt with SHA-256
printf 'Montu conformance message\n' > message.txt
for name in P-256 P-521 K-163 B-571; do
  openssl dgst -sha256 -sign "$name.sec1.pem" -out "$name.sig.der" message.txt
done
