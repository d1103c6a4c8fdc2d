// BuildInfoTests.swift: the `frontdoor --version` text and the frontdoor_build_info gauge.
import AccountCore
import Testing
@testable import WebFront

struct BuildInfoTests {
    @Test func versionTextNamesTheBuildTheBackendsAndTheLicense() {
        let info = BuildInfo(version: "1.2.3", commit: "0123456789ab", date: "2026-11-29T04:00:00Z")
        #expect(info.versionText(sqlite: "3.40.1", libpq: "15.13") == """
            frontdoor 1.2.3
            commit: 0123456789ab
            built: 2026-11-29T04:00:00Z
            backends: SQLite 3.40.1, PostgreSQL (libpq 15.13)
            license: Apache-2.0
            """)
    }

    @Test func aPlainBuildSaysUnknownForAllThreeOrAStampedOneForNone() {
        let values = [BuildInfo.current.version, BuildInfo.current.commit, BuildInfo.current.date]
        #expect(values.allSatisfy { $0 == "unknown" } || values.allSatisfy { $0 != "unknown" && !$0.isEmpty })
    }

    @Test func theLoadedLibrariesVersionsAreDottedNumbers() {
        for version in [BackendVersions.sqlite, BackendVersions.libpq] {
            #expect(version.wholeMatch(of: /[0-9]+(\.[0-9]+)+/) != nil, "\(version)")
        }
    }

    @Test func metricsCarryTheBuildInfoGaugeOnce() {
        let text = Metrics().requestText()
        let build = BuildInfo.current
        #expect(text.contains("# TYPE frontdoor_build_info gauge\n"))
        #expect(text.contains("frontdoor_build_info{version=\"\(build.version)\",commit=\"\(build.commit)\"} 1\n"))
        #expect(text.components(separatedBy: "frontdoor_build_info{").count == 2)
    }
}
