// PageCache.swift: anonymous pages that differ only by their CSRF token are rendered once, then served with the
// visitor's token put in.
//
// Options: none; a page opts in with a cache key (RequestContext.page(cacheKey:)), used only for a signed-out visitor
// with no flash. Why: a swift-mustache render of the sign-in page costs ~1.5M instructions (callgrind: two thirds in
// its context lookups through dynamic casts, one fifth in per-character HTML escaping), against ~0.2M for everything
// else in the request. Templates and configuration never change while the process runs, so nothing goes stale;
// the keys are a few constants, so the cache cannot grow.
import Foundation
import Locking

/// Rendered pages split around the CSRF token's places.
final class PageCache: @unchecked Sendable {
    /// What stands where the token goes while the page is rendered for the cache (no HTML escaping changes it).
    static let tokenMarker = "\u{1}frontdoor-csrf-token\u{1}"

    private let lock = Lock()
    private var pages: [String: [[UInt8]]] = [:]

    /// The page under `key` with `token` put in, rendering it with `render(marker)` the first time.
    func page(_ key: String, token: String, render: (String) throws -> String) rethrows -> [UInt8] {
        let parts: [[UInt8]]
        if let cached = lock.withLock({ pages[key] }) {
            parts = cached
        } else {
            parts = Self.split(Array(try render(Self.tokenMarker).utf8), on: Array(Self.tokenMarker.utf8))
            lock.withLock { pages[key] = parts }
        }
        let tokenBytes = Array(token.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(0) { $0 + $1.count } + tokenBytes.count * (parts.count - 1))
        for (index, part) in parts.enumerated() {
            if index > 0 { out.append(contentsOf: tokenBytes) }
            out.append(contentsOf: part)
        }
        return out
    }

    /// `bytes` cut at every occurrence of `marker` (which is dropped).
    static func split(_ bytes: [UInt8], on marker: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0, index = 0
        while index + marker.count <= bytes.count {
            if bytes[index] == marker[0] && bytes[index..<(index + marker.count)].elementsEqual(marker) {
                parts.append(Array(bytes[start..<index]))
                index += marker.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }
}
