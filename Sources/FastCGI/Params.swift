// Params.swift: a request's params (FastCGI's NAME=VALUE pairs, or a CGI environment) as the web server passed them.
//
// Kept as bytes in one buffer with the offsets of each pair; a value becomes a String only when somebody asks for it.
// Why: nginx passes about 25 params per request and an application reads a handful; making every name and value a
// String and hashing them into a dictionary cost ~16 k instructions of a gate check's ~120 k (callgrind), more than
// reading the request and writing the answer together. A lookup compares bytes from the last pair back (the last of
// a repeated name wins, as a dictionary filled in order would have it); 25 short comparisons are cheaper than one
// hash. Names are compared as bytes: a name that is not UTF-8 is found by its bytes, not by its repaired text (no
// application asks for one). Options: none.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every param of a request, by name.
public struct Params: Sendable {
    private struct Pair: Sendable {
        var start: Int
        var equals: Int
        var end: Int
    }

    /// `NAME=VALUE` of every pair, back to back.
    private var bytes: [UInt8] = []
    private var pairs: [Pair] = []

    /// Params from a dictionary (tests, plain CGI).
    public init(_ dictionary: [String: String] = [:]) {
        for (name, value) in dictionary {
            append(Array(name.utf8), Array(value.utf8))
        }
    }

    /// The `NAME=VALUE` strings of a NULL-terminated C array (what libfcgi hands over), split at each one's first `=`;
    /// a string without `=` is skipped.
    init(cStrings: UnsafePointer<UnsafeMutablePointer<CChar>?>?) {
        guard var cursor = cStrings else { return }
        bytes.reserveCapacity(2048)
        pairs.reserveCapacity(32)
        while let entry = cursor.pointee {
            let length = strlen(entry)
            entry.withMemoryRebound(to: UInt8.self, capacity: length) { start in
                let all = UnsafeBufferPointer(start: start, count: length)
                guard let equals = all.firstIndex(of: UInt8(ascii: "=")) else { return }
                let offset = bytes.count
                bytes.append(contentsOf: all)
                pairs.append(Pair(start: offset, equals: offset + equals, end: offset + length))
            }
            cursor += 1
        }
    }

    private mutating func append(_ name: [UInt8], _ value: [UInt8]) {
        let offset = bytes.count
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: "="))
        bytes.append(contentsOf: value)
        pairs.append(Pair(start: offset, equals: offset + name.count, end: bytes.count))
    }

    /// The value of the param `name`; nil when it was not passed.
    public subscript(name: String) -> String? {
        var name = name
        return name.withUTF8 { value(prefix: "", name: $0) }
    }

    /// The value of the param whose name is `prefix` followed by `name` (`HTTP_` and a header's name made into a
    /// param's, or no prefix), without making the whole name first; the last pair of that name wins.
    func value(prefix: StaticString, name: UnsafeBufferPointer<UInt8>) -> String? {
        let head = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return bytes.withUnsafeBufferPointer { all in
            for pair in pairs.reversed() where pair.equals - pair.start == head.count + name.count {
                if Self.equal(all, at: pair.start, head), Self.equal(all, at: pair.start + head.count, name) {
                    return String(decoding: UnsafeBufferPointer(rebasing: all[(pair.equals + 1)..<pair.end]), as: UTF8.self)
                }
            }
            return nil
        }
    }

    private static func equal(_ all: UnsafeBufferPointer<UInt8>, at offset: Int, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = all.baseAddress, let other = part.baseAddress, part.count > 0 else { return true }
        return memcmp(base + offset, other, part.count) == 0
    }

    /// Every param as a dictionary (the last of a repeated name wins).
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        bytes.withUnsafeBufferPointer { all in
            for pair in pairs {
                let name = String(decoding: UnsafeBufferPointer(rebasing: all[pair.start..<pair.equals]), as: UTF8.self)
                result[name] = String(decoding: UnsafeBufferPointer(rebasing: all[(pair.equals + 1)..<pair.end]), as: UTF8.self)
            }
        }
        return result
    }

    /// Whether no param was passed.
    public var isEmpty: Bool { pairs.isEmpty }
}
