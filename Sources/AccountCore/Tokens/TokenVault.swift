// TokenVault.swift: seals the providers' access and refresh tokens (and invitations carried through a flow) with
// AES-256-GCM before they are stored.
//
// Options: the key file (config `social.token_key_file`): 32 random bytes, created
// at first start with mode 0600 (its folder too, 0700, when missing), the same file on every host (TokenVault+Shared).
// It is never overwritten: the key is written to a temporary file opened with O_CREAT|O_EXCL and linked into place,
// so two processes starting at once agree on one key and nobody ever reads half a key. A key file of the wrong size, not a regular file, or readable or writable by group
// or others is refused with a message saying what to fix.
// A sealed value is nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes), with a fresh random nonce each time. Each value
// is bound to what it belongs to through the associated data (`context`): an identity's tokens to "<provider>\n<subject>",
// a carried invitation to "invite"; a blob copied to another row does not open.
import Crypto
import Encodings
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the vault's key could not be used, or a sealed value did not open.
public struct TokenVaultError: Error, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

/// AES-GCM with one key for the process.
public struct TokenVault: Sendable {
    /// Size of the key and of the key file.
    public static let keyByteCount = 32

    let key: SymmetricKey

    public init(key: SymmetricKey) { self.key = key }

    /// A vault with a fresh random key (tests, and `AccountServices`' default).
    public static func ephemeral(random: any RandomSource = SystemRandomSource()) -> TokenVault {
        TokenVault(key: SymmetricKey(data: random.bytes(keyByteCount)))
    }

    /// The vault whose key is in `path`, creating the file (0600) with a random key when it does not exist.
    ///
    /// ```swift
    /// let vault = try TokenVault.loadOrCreate(path: "var/social-tokens.key")
    /// ```
    /// - Throws: `TokenVaultError` when the file has the wrong size or mode, is not a regular file, or cannot be read
    ///   or created.
    public static func loadOrCreate(path: String, random: any RandomSource = SystemRandomSource()) throws -> TokenVault {
        if let key = try readKey(path: path) { return TokenVault(key: SymmetricKey(data: key)) }
        try createKey(path: path, bytes: random.bytes(keyByteCount))
        // Read back what is there now: another process may have won the race and written its own key.
        guard let key = try readKey(path: path) else { throw TokenVaultError("\(path): the key file vanished just after it was created") }
        return TokenVault(key: SymmetricKey(data: key))
    }

    /// nonce ‖ ciphertext ‖ tag.
    public func seal(_ plaintext: Data, context: String) throws -> Data {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Data(context.utf8))
        guard let combined = box.combined else { throw TokenVaultError("sealing produced no combined form") }
        return combined
    }

    /// The plaintext, or throws when the blob was not sealed with this key and context.
    public func open(_ sealed: Data, context: String) throws -> Data {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: key, authenticating: Data(context.utf8))
        } catch {
            throw TokenVaultError("a sealed value did not open: another key or another row's value")
        }
    }

    // MARK: The key file

    /// The key in `path`, or nil when there is no such file.
    private static func readKey(path: String) throws -> [UInt8]? {
        let fd = openFile(path, O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw TokenVaultError("\(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw TokenVaultError("\(path): cannot be examined (\(String(cString: strerror(errno))))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw TokenVaultError("\(path): is not a regular file") }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw TokenVaultError("\(path): mode \(String(mode, radix: 8)) lets group or others at the key; make it 600 (chmod 600 \(path))")
        }
        guard info.st_size == keyByteCount else {
            throw TokenVaultError("\(path): holds \(info.st_size) bytes, a key is \(keyByteCount); restore the right file, or remove it "
                                  + "and run `frontdoor keys forget-token-key` to make a new key (stored provider tokens are then lost)")
        }
        var key = [UInt8](repeating: 0, count: keyByteCount)
        var got = 0
        while got < keyByteCount {
            let count = key.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, keyByteCount - got) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw TokenVaultError("\(path): could not be read to the end") }
            got += count
        }
        return key
    }

    /// Writes `bytes` to a fresh 0600 file next to `path` and links it into place unless `path` exists by then.
    private static func createKey(path: String, bytes: [UInt8]) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw TokenVaultError("\(folder): the key file's folder cannot be created (\(error.localizedDescription))")
            }
        }
        let temporary = path + ".new-\(getpid())-\(Base64URL.encode(SystemRandomSource().bytes(6)))"
        let fd = openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TokenVaultError("\(temporary): cannot be created (\(String(cString: strerror(errno))))") }
        defer { unlink(temporary) }
        var written = 0
        var failure: String?
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { failure = String(cString: strerror(errno)); break }
            written += count
        }
        // The umask may only narrow the mode; make sure it is exactly 0600, and on disk before it is linked.
        if failure == nil, fchmod(fd, 0o600) != 0 || fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if let failure { throw TokenVaultError("\(temporary): the key cannot be written (\(failure))") }
        // link(2) never replaces an existing file: if another process put its key there first, keep that one.
        guard link(temporary, path) == 0 || errno == EEXIST else {
            throw TokenVaultError("\(path): cannot be created (\(String(cString: strerror(errno))))")
        }
    }
}

/// open(2), outside `TokenVault` whose `open(_:context:)` would hide it.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
