"""A software passkey authenticator for tests that talk to frontdoor without a browser: it answers the options of
passkeys/*/options as navigator.credentials would (an ES256 key from `cryptography`, attestation "none", a CBOR
encoder for the few shapes WebAuthn uses), and can lie on purpose: another RP ID, another origin, no user
verification. The credential it returns is the JSON passkeys.js posts (base64url byte strings)."""
import base64
import hashlib
import json
import os
import struct

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cbor(value):
    """Canonical CBOR of ints, bytes, text and maps (all WebAuthn's attestation object and COSE key need)."""
    def head(major, length):
        if length < 24:
            return bytes([major << 5 | length])
        for size, code in ((1, 24), (2, 25), (4, 26), (8, 27)):
            if length < 1 << (8 * size):
                return bytes([major << 5 | code]) + length.to_bytes(size, "big")
        raise ValueError("too long")
    if isinstance(value, bool):
        return bytes([0xF5 if value else 0xF4])
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode()
        return head(3, len(data)) + data
    if isinstance(value, dict):
        items = sorted((cbor(k), cbor(v)) for k, v in value.items())   # canonical: keys by their encoded bytes
        return head(5, len(items)) + b"".join(k + v for k, v in items)
    raise TypeError(type(value))


class SoftAuthenticator:
    """One credential (made at the first registration), with a counter that goes up at each assertion."""

    def __init__(self, origin, rp_id):
        self.origin = origin
        self.rp_id = rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.user_handle = None
        self.sign_count = 0

    def cose_key(self):
        numbers = self.key.public_key().public_numbers()
        return cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def client_data(self, kind, challenge, origin=None):
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}).encode()

    def auth_data(self, rp_id=None, flags=0x05, attested=False):
        """rpIdHash · flags (UP 0x01, UV 0x04, AT 0x40) · counter [· AAGUID · id length · id · COSE key]."""
        data = hashlib.sha256((rp_id or self.rp_id).encode()).digest() + bytes([flags | (0x40 if attested else 0)])
        data += struct.pack(">I", self.sign_count)
        if attested:
            data += bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + self.cose_key()
        return data

    def create(self, options, rp_id=None, origin=None, flags=0x05):
        """navigator.credentials.create's answer to `options` (the `publicKey` object of the options endpoint)."""
        self.user_handle = unb64url(options["user"]["id"])
        client = self.client_data("webauthn.create", options["challenge"], origin)
        attestation = cbor({"fmt": "none", "attStmt": {}, "authData": self.auth_data(rp_id, flags, attested=True)})
        return json.dumps({"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                           "response": {"clientDataJSON": b64url(client), "attestationObject": b64url(attestation)}})

    def get(self, options, rp_id=None, origin=None, flags=0x05):
        """navigator.credentials.get's answer to `options`, signed with the key (ES256, DER)."""
        self.sign_count += 1
        client = self.client_data("webauthn.get", options["challenge"], origin)
        auth = self.auth_data(rp_id, flags)
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        response = {"clientDataJSON": b64url(client), "authenticatorData": b64url(auth), "signature": b64url(signature)}
        if self.user_handle:
            response["userHandle"] = b64url(self.user_handle)
        return json.dumps({"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                           "response": response})
