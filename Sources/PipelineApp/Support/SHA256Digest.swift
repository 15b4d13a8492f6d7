import CLibCrypto
import Foundation

/// The SHA-256 of `bytes` as 64 lowercase hex digits, as `sha256sum` prints it: a stored file's identity
/// (`receipts.sha256`), computed by OpenSSL's libcrypto (`EVP_Digest`).
func sha256Hex(_ bytes: some ContiguousBytes) -> String {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let succeeded = bytes.withUnsafeBytes { buffer in
        EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil) == 1
    }
    // Fails only when libcrypto offers no SHA-256 at all: an OpenSSL configuration without the default provider.
    precondition(
        succeeded,
        "OpenSSL's libcrypto could not compute a SHA-256 (EVP_Digest failed); check the OpenSSL configuration "
            + "(OPENSSL_CONF, /etc/ssl/openssl.cnf) loads the default provider")
    return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
}
