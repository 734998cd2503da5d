"""This tool's device identity: an Ed25519 key kept beside the state, and the signed `device` block of `connect`."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openclaw_cli.errors import CliError

# Our own file, never OpenClaw's identity store: 2026.7.1 keeps its key in identity/device.json,
# 2026.8+ in the state database, and a 2026.9.6 Gateway refuses to start while an
# identity/device.json it has not migrated exists.
IDENTITY_RELATIVE_PATH = os.path.join("openclaw-cli", "device-identity.json")
SIGNATURE_VERSION = "v3"


class DeviceIdentityError(CliError):
    """The identity file cannot be read, parsed or written."""


@dataclass(frozen=True, repr=False)
class DeviceIdentity:
    """An Ed25519 key pair; `device_id` is the hex SHA-256 of the raw public key."""

    device_id: str
    public_key_pem: str
    private_key_pem: str
    created_at_ms: int
    path: str

    def __repr__(self) -> str:
        return f"DeviceIdentity({self.device_id[:12]}…, {self.path})"


def identity_path(state_dir: str) -> str:
    return os.path.join(state_dir, IDENTITY_RELATIVE_PATH)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _private_key(pem: str) -> Any:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError("not an Ed25519 private key")
    return key


def _raw_public_key(pem: str) -> bytes:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = serialization.load_pem_public_key(pem.encode("ascii"))
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError("not an Ed25519 public key")
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _generate(path: str) -> DeviceIdentity:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    public = key.public_key()
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return DeviceIdentity(
        device_id=hashlib.sha256(raw).hexdigest(),
        public_key_pem=public.public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii"),
        private_key_pem=key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()).decode("ascii"),
        created_at_ms=int(time.time() * 1000), path=path)


def _parse(path: str, text: str) -> DeviceIdentity:
    """The stored identity, checked: the keys belong together and the id is the public key's hash."""
    try:
        data = json.loads(text)
        identity = DeviceIdentity(device_id=data["deviceId"], public_key_pem=data["publicKeyPem"],
                                  private_key_pem=data["privateKeyPem"],
                                  created_at_ms=int(data["createdAtMs"]), path=path)
        raw = _raw_public_key(identity.public_key_pem)
        from cryptography.hazmat.primitives import serialization

        own = _private_key(identity.private_key_pem).public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    except (ValueError, KeyError, TypeError) as exc:
        raise DeviceIdentityError(f"the device identity {path} is not valid ({exc})",
                                  hint="move the file away; a new identity is created (and paired) on the "
                                       "next Gateway call") from None
    if own != raw or hashlib.sha256(raw).hexdigest() != identity.device_id:
        raise DeviceIdentityError(f"the device identity {path} is not valid (its keys or id do not match)",
                                  hint="move the file away; a new identity is created (and paired) on the "
                                       "next Gateway call")
    return identity


def _serialize(identity: DeviceIdentity) -> str:
    return json.dumps({"version": 1, "deviceId": identity.device_id, "publicKeyPem": identity.public_key_pem,
                       "privateKeyPem": identity.private_key_pem, "createdAtMs": identity.created_at_ms},
                      indent=2) + "\n"


def save_identity(identity: DeviceIdentity) -> DeviceIdentity:
    """Write a new identity (mode 0600) without ever replacing one: a concurrent run's key wins."""
    path = identity.path
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    temp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(_serialize(identity))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temp, path)  # fails when another run created it meanwhile
        except FileExistsError:
            return load_identity(path)
        with contextlib.suppress(OSError):
            dir_fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    return identity


def load_identity(path: str) -> DeviceIdentity:
    try:
        with open(path, encoding="utf-8") as handle:
            return _parse(path, handle.read())
    except OSError as exc:
        raise DeviceIdentityError(f"cannot read the device identity {path}: {exc.strerror or exc}") from None


def load_or_new_identity(state_dir: str) -> tuple[DeviceIdentity, bool]:
    """The identity kept under `state_dir`, or a new one (True) that is not written yet: the caller
    keeps it (`keep_identity`) once a Gateway has accepted it or holds a pairing request for it, so a
    refused connection leaves nothing on disk."""
    path = identity_path(state_dir)
    if os.path.lexists(path):
        return load_identity(path), False
    return _generate(path), True


def keep_identity(identity: DeviceIdentity) -> DeviceIdentity:
    """Write a new identity; the one on disk when another run wrote it first."""
    try:
        return save_identity(identity)
    except OSError as exc:
        raise DeviceIdentityError(f"cannot create the device identity {identity.path}: "
                                  f"{exc.strerror or exc}") from None


def _metadata(value: str | None) -> str:
    """Platform and device family as the signature carries them: trimmed, ASCII upper case lowered."""
    text = (value or "").strip()
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def signature_payload(*, device_id: str, client_id: str, client_mode: str, role: str, scopes: Sequence[str],
                      signed_at_ms: int, token: str | None, nonce: str, platform: str | None,
                      device_family: str | None = None) -> str:
    """The v3 text the Gateway verifies: the connection's identity, scopes, time, token and nonce."""
    return "|".join([SIGNATURE_VERSION, device_id, client_id, client_mode, role, ",".join(scopes),
                     str(signed_at_ms), token or "", nonce, _metadata(platform), _metadata(device_family)])


def device_block(identity: DeviceIdentity, *, connect_params: Mapping[str, Any], nonce: str,
                 signed_at_ms: int) -> dict[str, Any]:
    """The `device` block of `connect`, signing what `connect_params` already holds."""
    client = connect_params.get("client") or {}
    auth = connect_params.get("auth") or {}
    payload = signature_payload(
        device_id=identity.device_id, client_id=client.get("id", ""), client_mode=client.get("mode", ""),
        role=connect_params.get("role", "operator"), scopes=connect_params.get("scopes") or [],
        signed_at_ms=signed_at_ms, token=auth.get("token") or auth.get("deviceToken") or auth.get("bootstrapToken"),
        nonce=nonce, platform=client.get("platform"), device_family=client.get("deviceFamily"))
    signature = _private_key(identity.private_key_pem).sign(payload.encode("utf-8"))
    return {"id": identity.device_id, "publicKey": _b64url(_raw_public_key(identity.public_key_pem)),
            "signature": _b64url(signature), "signedAt": signed_at_ms, "nonce": nonce}


def needs_device(*, url_is_loopback: bool, auth_mode: str, token: str | None, password: str | None) -> bool:
    """Whether a `cli` connection presents the device identity: always, except on loopback with the
    shared secret of the Gateway's auth mode (OpenClaw's CLI leaves it out exactly then)."""
    shared_secret = (auth_mode == "token" and bool(token)) or (auth_mode == "password" and bool(password))
    return not (url_is_loopback and shared_secret)
