// ReturnTarget.swift: decides whether a return target (`rd`) may be followed: only paths on this site.

/// Checks return targets so that sign-in can never redirect to another host (no open redirect).
public enum ReturnTarget {
    /// `raw` when it is a path on this site, else `fallback`.
    ///
    /// Refused: absolute URLs (`https://evil`), scheme-relative (`//evil`), backslash tricks (`/\evil`),
    /// `https:evil`, control characters, and any of these hidden behind percent-encoding (`%2F%2Fevil`).
    public static func checked(_ raw: String?, fallback: String) -> String {
        guard let raw, !raw.isEmpty, raw.utf8.count <= 2048 else { return fallback }
        var candidate = raw
        for _ in 0..<3 {
            guard isLocalPath(candidate) else { return fallback }
            let decoded = FormData.decodePath(candidate)
            if decoded == candidate { return raw }
            candidate = decoded
        }
        return isLocalPath(candidate) ? raw : fallback
    }

    private static func isLocalPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count > 1, bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\") { return false }
        return !bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }
    }
}
