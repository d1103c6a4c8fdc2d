// swift-tools-version:6.1
// Frontdoor's libFuzzer targets: a package of its own (fuzz/.build) over the root package's library products, so a
// plain `swift build` at the root never sees them. Build and run them with scripts/fuzz (see fuzz/README.md):
//   swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
// Without -DFUZZING each target is a stub executable that says how to build it.
import PackageDescription

let package = Package(
    name: "FrontdoorFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Frontdoor", path: ".."),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),   // Logger for the in-process Site (api-fuzz)
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),  // the fixture's keys and hashes (webauthn-fuzz)
    ],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(name: "form-fuzz", dependencies: ["FuzzSupport", .product(name: "WebFront", package: "Frontdoor")]),
        .executableTarget(name: "request-fuzz", dependencies: ["FuzzSupport", .product(name: "FastCGI", package: "Frontdoor")]),
        .executableTarget(name: "browserid-fuzz", dependencies: ["FuzzSupport", .product(name: "BrowserID", package: "Frontdoor")]),
        .executableTarget(name: "api-fuzz", dependencies: [
            "FuzzSupport",
            .product(name: "WebFront", package: "Frontdoor"),
            .product(name: "AccountCore", package: "Frontdoor"),
            .product(name: "AccountRules", package: "Frontdoor"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "mail-fuzz", dependencies: ["FuzzSupport", .product(name: "AccountCore", package: "Frontdoor")]),
        .executableTarget(name: "webauthn-fuzz", dependencies: [
            "FuzzSupport",
            .product(name: "WebAuthn", package: "Frontdoor"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
    ]
)
