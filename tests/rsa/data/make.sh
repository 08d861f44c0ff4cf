#!/bin/sh
# Regenerates the key files of tests/rsa/test_rsa_encoding.py with OpenSSL 3 (test keys only:
# never use them for anything else). Run from this directory: sh make.sh
set -e
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out rsa-genpkey.pem   # PKCS#8
openssl genrsa -traditional -out rsa-genrsa-traditional.pem 1024                     # PKCS#1
openssl genrsa -out rsa-genrsa.pem 1024                                              # PKCS#8 (OpenSSL 3 default)
openssl pkey -in rsa-genpkey.pem -pubout -out rsa-genpkey-pub.pem                    # SPKI
openssl rsa -in rsa-genpkey.pem -RSAPublicKey_out -out rsa-genpkey-pub-pkcs1.pem     # PKCS#1 public
openssl pkcs8 -topk8 -nocrypt -in rsa-genpkey.pem -outform DER -out rsa-genpkey-pkcs8.der  # (pkey -outform DER writes PKCS#1 for RSA)
openssl rsa -in rsa-genpkey.pem -traditional -outform DER -out rsa-genpkey-pkcs1.der
openssl pkey -in rsa-genpkey.pem -pubout -outform DER -out rsa-genpkey-pub.der
openssl rsa -in rsa-genpkey.pem -RSAPublicKey_out -outform DER -out rsa-genpkey-pub-pkcs1.der
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -pkeyopt rsa_keygen_pubexp:3 -out rsa-e3.pem
# encrypted (password "montu")
openssl pkcs8 -topk8 -in rsa-genpkey.pem -v2 aes-256-cbc -passout pass:montu -out rsa-encrypted-pkcs8.pem
openssl pkcs8 -topk8 -in rsa-genpkey.pem -v2 aes-256-cbc -passout pass:montu -outform DER -out rsa-encrypted-pkcs8.der
openssl rsa -in rsa-genpkey.pem -traditional -aes128 -passout pass:montu -out rsa-encrypted-pkcs1.pem
# other key types
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec-p256.pem
openssl pkey -in ec-p256.pem -pubout -out ec-p256-pub.pem
openssl pkey -in ec-p256.pem -outform DER -out ec-p256.der
openssl ecparam -name secp384r1 -genkey -out ec-p384-sec1.pem                        # EC PARAMETERS + EC PRIVATE KEY
openssl genpkey -algorithm ED25519 -out ed25519.pem
openssl pkey -in ed25519.pem -pubout -out ed25519-pub.pem
openssl genpkey -algorithm X25519 -out x25519.pem
openssl dsaparam -out dsaparam.tmp 1024 2>/dev/null && openssl gendsa -out dsa.pem dsaparam.tmp && rm dsaparam.tmp
openssl req -x509 -key rsa-genpkey.pem -subj /CN=montu-test -days 3650 -out cert.pem
# large keys (tests/rsa/test_rsa_large_keys.py): 8192 bits runs on the driver's larger unit, 16384 is refused
openssl genrsa -out rsa-8192.pem 8192
openssl genrsa -out rsa-16384.pem 16384
