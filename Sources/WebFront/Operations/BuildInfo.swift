// BuildInfo.swift: what this binary is: its version, commit and build date (CBuildInfo, set by scripts/dist from
// VERSION and git; "unknown" in a plain `swift build`), and the database libraries it loaded.
//
// Options: none. Shown by `frontdoor --version` and as the frontdoor_build_info gauge in /metrics.
import AccountCore
import CBuildInfo

/// This build's identity.
public struct BuildInfo: Sendable, Equatable {
    public var version: String
    public var commit: String
    public var date: String

    public init(version: String, commit: String, date: String) {
        (self.version, self.commit, self.date) = (version, commit, date)
    }

    /// The values compiled into this binary.
    public static let current = BuildInfo(version: String(cString: frontdoor_build_version()),
                                          commit: String(cString: frontdoor_build_commit()),
                                          date: String(cString: frontdoor_build_date()))

    /// The `frontdoor --version` text: the first line is `frontdoor VERSION`, then one `name: value` line each.
    public func versionText(sqlite: String = BackendVersions.sqlite, libpq: String = BackendVersions.libpq) -> String {
        """
        frontdoor \(version)
        commit: \(commit)
        built: \(date)
        backends: SQLite \(sqlite), PostgreSQL (libpq \(libpq))
        license: Apache-2.0
        """
    }
}
