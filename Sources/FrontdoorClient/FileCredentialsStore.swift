// FileCredentialsStore.swift: credentials in one JSON file, for Linux and command-line tools.
//
// Options: `path` (the file; its folder is created with mode 0700 when missing). The file is `{key: Credentials}`,
// readable by its owner only (0600). Every change rewrites it atomically: a temporary file is created 0600 in the
// same folder, written, flushed and renamed over the old one, so a reader sees the old or the new file, never half
// of one, and the secrets are never readable by others, not even for a moment. A lock serialises the calls of one
// process; two processes sharing a file may lose each other's concurrent writes (the last rename wins).
import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Credentials kept in one JSON file of mode 0600.
///
/// ```swift
/// let store = FileCredentialsStore(path: home + "/.config/myapp/credentials.json")
/// try store.setDefaultCredentials(Credentials(username: "ann@example.com", secret: token, url: server))
/// ```
public final class FileCredentialsStore: CredentialsStore, @unchecked Sendable {
    /// Why the file could not be read or written.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public let path: String
    private let lock = Lock()

    public init(path: String) { self.path = path }

    public func credentials(forKey key: String) throws -> Credentials? { try lock.withLock { try read()[key] } }

    public func set(_ credentials: Credentials, forKey key: String) throws {
        try lock.withLock {
            var items = try read()
            items[key] = credentials
            try write(items)
        }
    }

    public func remove(forKey key: String) throws {
        try lock.withLock {
            var items = try read()
            guard items.removeValue(forKey: key) != nil else { return }
            try write(items)
        }
    }

    public func removeAll() throws {
        try lock.withLock {
            guard FileManager.default.fileExists(atPath: path) else { return }
            try write([:])
        }
    }

    public func keys() throws -> [String] { try lock.withLock { try read().keys.sorted() } }

    // MARK: - The file

    private func read() throws -> [String: Credentials] {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw Failure(description: "cannot read \(path)") }
            return [:]
        }
        if data.isEmpty { return [:] }
        do {
            return try JSONDecoder().decode([String: Credentials].self, from: data)
        } catch {
            throw Failure(description: "\(path) is not a credentials file: \(error)")
        }
    }

    private func write(_ items: [String: Credentials]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(items)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let template = (folder.isEmpty ? "." : folder) + "/.credentials-XXXXXX"
        var name = Array(template.utf8CString)
        let fd = mkstemp(&name)   // created 0600, O_EXCL
        guard fd >= 0 else { throw Failure(description: "cannot create a file in \(folder): \(errorText())") }
        let temporary = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            throw Failure(description: "cannot write \(temporary): \(error)")
        }
        guard rename(temporary, path) == 0 else { throw Failure(description: "cannot replace \(path): \(errorText())") }
        done = true
    }

    private func errorText() -> String { String(cString: strerror(errno)) }
}
