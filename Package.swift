// swift-tools-version:6.1
// Frontdoor: a self-hosted sign-in front served over FastCGI behind nginx.
// Dependency direction: frontdoor → WebFront → {AccountCore, BrowserID, OAuthClient, FastCGI}; AccountCore → AccountRules.
// Locking (issue 21) is a leaf every module that needs a lock may import: the one lock type, below all of them.
// Encodings (base64url) and Curl (the libcurl client) are leaves too (issue 26): one copy each below the modules using them.
// JOSE (issue 38) is the one JWS implementation, a leaf below BrowserID, OAuthClient and WebFront (the OpenID provider).
// OAuthClient (issue 8) is its own target, beside BrowserID: the OAuth 2.0 / OpenID Connect client side of social sign-in
// (provider presets, discovery, JWKS, ID-token checks, token exchange over libcurl). It knows nothing of accounts or HTTP serving.
// FrontdoorClient (issue 9) is the Swift client library for native apps over the JSON API: FrontdoorClient → AccountRules only
// (Foundation's URLSession, FoundationNetworking on Linux; the Keychain store only where Security exists).
// WebAuthn is a leaf below AccountCore: passkey registration and assertion checks (CBOR, COSE keys), no storage or HTTP.
// CBuildInfo carries the version, commit and build date that scripts/dist passes in the environment (below).
// License: Apache License 2.0 (LICENSE).
import PackageDescription

/// FRONTDOOR_VERSION, FRONTDOOR_COMMIT and FRONTDOOR_BUILD_DATE from the build's environment, as C string macros for
/// CBuildInfo; a value with characters outside [A-Za-z0-9.:+_-] is left out (the binary then says "unknown").
let buildInfoDefines: [CSetting] = ["FRONTDOOR_VERSION", "FRONTDOOR_COMMIT", "FRONTDOOR_BUILD_DATE"].compactMap { name in
    guard let value = Context.environment[name], !value.isEmpty,
          value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".:+_-".contains($0)) }) else { return nil }
    return .define(name, to: "\"\(value)\"")
}

let package = Package(
    name: "Frontdoor",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "frontdoor", targets: ["frontdoor"]),
        .library(name: "FastCGI", targets: ["FastCGI"]),
        .library(name: "AccountRules", targets: ["AccountRules"]),
        .library(name: "AccountCore", targets: ["AccountCore"]),
        .library(name: "BrowserID", targets: ["BrowserID"]),
        .library(name: "OAuthClient", targets: ["OAuthClient"]),
        .library(name: "WebFront", targets: ["WebFront"]),
        .library(name: "FrontdoorClient", targets: ["FrontdoorClient"]),
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "5.0.1"),
        .package(url: "https://github.com/attaswift/BigInt", exact: "6.0.1"),
    ],
    targets: [
        .systemLibrary(name: "CFastCGI", pkgConfig: "fcgi", providers: [.apt(["libfcgi-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenSSL's libcrypto (the one libcurl links): DSA and sub-2048-bit RSA signature checks for the
        // BrowserID legacy algorithms, which swift-crypto does not offer (issue 22).
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libpq for the PostgreSQL storage backend (issue 23).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libqrencode for the one-time-code enrolment's QR code, drawn as inline SVG by WebFront (issue 37).
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // The project's one lock (pthread mutex + condition), below every module that needs one; not a product.
        .target(name: "Locking"),
        .target(name: "CBuildInfo", cSettings: buildInfoDefines),
        // Addresses as numbers (inet_pton), CIDR ranges and the special-purpose rule (issue 22): a leaf, because
        // AccountCore (per-address limits), BrowserID (which hosts /verify may fetch from) and WebFront all need them.
        .target(name: "IPAddresses"),
        // Base64url, the one copy (issue 26): a leaf without Foundation, since AccountCore and BrowserID may not import
        // each other and both (with OAuthClient and WebFront) need it.
        .target(name: "Encodings"),
        // JSON Web Signatures, the one implementation (issue 38): compact JWS parse/sign, RS256 and ES256 keys, JWKs and
        // RFC 7638 thumbprints. A leaf because BrowserID, OAuthClient and WebFront (the OpenID provider) all sign or check
        // JWS and may not import each other. Ours rather than vapor/jwt-kit: see README "Layout".
        .target(name: "JOSE", dependencies: [
            "Encodings",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        // The one libcurl easy-handle wrapper (issue 26): SMTP upload and HTTPS GET/POST are each one CurlTransfer.
        .target(name: "Curl", dependencies: ["CCurl"]),
        // The server side of WebAuthn: its own CBOR subset, COSE keys, authenticator and client data, the two
        // ceremonies. A leaf because AccountCore checks assertions against stored keys, and AccountCore, BrowserID and
        // OAuthClient may not import each other.
        .target(name: "WebAuthn", dependencies: [
            "Encodings",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .target(name: "FastCGI", dependencies: ["CFastCGI", "Locking"]),
        .target(name: "AccountRules"),
        .target(name: "AccountCore", dependencies: [
            "AccountRules", "CArgon2", "CCurl", "CLibPQ", "Curl", "Encodings", "IPAddresses", "Locking", "WebAuthn",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),   // raw sqlite3 for the per-thread session lookup
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "BrowserID", dependencies: [
            "COpenSSL", "Curl", "IPAddresses", "JOSE", "Locking",
            .product(name: "BigInt", package: "BigInt"),
        ]),
        .target(name: "OAuthClient", dependencies: [
            "Curl", "Encodings", "JOSE", "Locking",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "WebFront", dependencies: [
            "AccountCore", "AccountRules", "BrowserID", "CBuildInfo", "Encodings", "FastCGI", "IPAddresses", "JOSE", "Locking", "OAuthClient",
            "CQREncode",
            .product(name: "Mustache", package: "swift-mustache"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "FrontdoorClient", dependencies: ["AccountRules", "Locking"]),
        .executableTarget(name: "frontdoor", dependencies: [
            "WebFront", "AccountCore", "AccountRules", "FastCGI",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The tests' own reading of the mail Frontdoor writes (decoders apart from AccountCore's encoders).
        .target(name: "MailTestKit", path: "Tests/MailTestKit"),
        .target(name: "StorageTestKit", dependencies: ["AccountCore", "Locking"], path: "Tests/StorageTestKit"),
        .testTarget(name: "FastCGITests", dependencies: ["FastCGI", "Locking"]),
        .testTarget(name: "AccountRulesTests", dependencies: ["AccountRules"]),
        .testTarget(name: "IPAddressesTests", dependencies: ["IPAddresses", "AccountCore"]),
        .testTarget(name: "EncodingsTests", dependencies: ["Encodings"]),
        .testTarget(name: "JOSETests", dependencies: ["JOSE", "Encodings"]),
        .testTarget(name: "CurlTests", dependencies: ["Curl", "CCurl"]),
        .testTarget(name: "AccountCoreTests", dependencies: ["AccountCore", "Encodings", "IPAddresses", "Locking", "MailTestKit", "StorageTestKit"]),
        .testTarget(name: "BrowserIDTests", dependencies: ["BrowserID", "IPAddresses", "Locking"], exclude: ["Vectors"]),
        .testTarget(name: "OAuthClientTests", dependencies: ["OAuthClient", "Locking"]),
        .testTarget(name: "WebFrontTests", dependencies: ["WebFront", "BrowserID", "IPAddresses", "Locking", "OAuthClient", "MailTestKit", "StorageTestKit"]),
        .testTarget(name: "FrontdoorClientTests", dependencies: ["FrontdoorClient", "AccountRules", "Locking", "MailTestKit",
                                                          .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(name: "WebAuthnTests", dependencies: [
            "WebAuthn", "Encodings",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
    ]
)
