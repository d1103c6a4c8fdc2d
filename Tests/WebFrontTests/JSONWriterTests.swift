// JSONWriterTests.swift: JSONWriter writes, byte for byte, what JSONSerialization writes with [.sortedKeys,
// .withoutEscapingSlashes] (what Response.json sent before): every caller's shape, every escape, the key order, a few
// thousand random values; and it leaves to JSONSerialization what it does not know.
@testable import AccountCore
import Foundation
import Testing
@testable import WebFront

struct JSONWriterTests {
    /// JSONSerialization's bytes, as Response.json wrote them before.
    static func foundation(_ object: [String: Any]) -> [UInt8] {
        [UInt8]((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8))
    }

    /// The writer wrote `object` itself, and wrote Foundation's bytes.
    static func expectSame(_ object: [String: Any], _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let written = JSONWriter.handWritten(object)
        #expect(written != nil, "not written by hand: \(comment) \(object)", sourceLocation: sourceLocation)
        let expected = foundation(object)
        #expect(written.map { String(decoding: $0, as: UTF8.self) } == String(decoding: expected, as: UTF8.self),
                "\(comment)", sourceLocation: sourceLocation)
        #expect(Response.json(object).body == expected, sourceLocation: sourceLocation)
    }

    // MARK: The callers' shapes

    @Test func everyCallersShapeIsWrittenByHandAsFoundationWritesIt() {
        let user: [String: Any] = ["id": Int64(42), "email": "ana@example.com", "authenticationToken": "tok/en+==",
                                   "createdAt": "2026-11-24T10:00:00.000Z", "updatedAt": "2026-11-24T10:00:00.000Z",
                                   "username": "ana", "displayName": "Ana Lí", "profile": ["city": "Zürich", "phone2": "+41"],
                                   "city": "Zürich", "phone2": "+41", "unconfirmedEmail": "new@example.com"]
        let shapes: [(String, [String: Any])] = [
            ("verify okay", ["status": "okay", "email": "ana@example.com", "audience": "https://rp.example:8443/",
                             "expires": Int64(1_764_388_862_345), "issuer": "idp.example"]),
            ("verify failure", ["status": "failure", "reason": "assertion has expired"]),
            ("verify busy", ["status": "failure", "reason": "busy: too many support documents are being fetched; try again shortly"]),
            ("certify", ["certificate": "eyJhbGciOiJSUzI1NiJ9.eyJ9.c2ln", "server_time": Int64(1_764_388_862_345)]),
            ("certify error", ["error": "not_signed_in"]),
            ("users confirmation", ["user": ["id": NSNull(), "email": "ana@example.com", "authenticationToken": NSNull(),
                                             "createdAt": NSNull(), "updatedAt": NSNull()] as [String: Any], "confirmationSent": true]),
            ("user", ["user": user]),
            ("user without token", ["user": user.merging(["authenticationToken": NSNull()]) { $1 }]),
            ("empty", [:]),
            ("residence", ["id": "r_1", "state": "pending", "secret": "s3cr3t"]),
            ("residence verified", ["email": "ana@example.com", "state": "verified", "token": "abc"]),
            ("health", ["status": "ok"]),
            ("health ready", ["status": "unavailable", "checks": ["database": "ok", "listener": "down"] as [String: Any]]),
            ("provider token", ["access_token": "ya29.a0", "token_type": "Bearer", "scope": NSNull(), "expires_at": Int64(1_764_388_862)]),
            ("provider token scoped", ["access_token": "ya29.a0", "token_type": "Bearer", "scope": "email profile", "expires_at": NSNull()]),
            ("token", ["access_token": "at", "token_type": "Bearer", "expires_in": 3600, "scope": "openid email",
                       "refresh_token": "rt", "id_token": "a.b.c"]),
            ("introspection", ["active": true, "scope": "openid", "client_id": "app", "username": "ana", "token_type": "Bearer",
                               "exp": 1_764_388_862, "iat": 1_764_385_262, "sub": "s", "aud": "app", "iss": "https://idp.example/account", "sid": "x"]),
            ("introspection inactive", ["active": false]),
            ("device", ["device_code": "dc", "user_code": "ABCD-EFGH", "verification_uri": "https://idp.example/account/device",
                        "verification_uri_complete": "https://idp.example/account/device?user_code=ABCD-EFGH", "expires_in": 600, "interval": 5]),
            ("pushed", ["request_uri": "urn:ietf:params:oauth:request_uri:abc", "expires_in": 90]),
            ("passkey redirect", ["redirect": "/account/settings/passkeys"]),
            ("passkey error", ["error": "passkey_invalid", "message": "That passkey didn’t work.", "redirect": "/account/sign_in?rd=%2F"]),
            ("userinfo", IDTokenClaims.userinfo(scopes: ["openid", "profile", "email", "groups"], subject: "sub-1",
                                                facts: AccountFacts(email: "ana@example.com", emailVerified: true, displayName: "Ana",
                                                                    username: "ana", groups: ["admins", "staff"]))),
            ("userinfo unverified", IDTokenClaims.userinfo(scopes: ["openid", "email"], subject: "sub-1",
                                                          facts: AccountFacts(email: "a@example.com", emailVerified: false, displayName: "",
                                                                              username: "", groups: []))),
        ]
        for (name, object) in shapes { Self.expectSame(object, name) }
        for purpose in PasskeyPurpose.allCases {
            var options = PasskeyOptions(challenge: Array(0..<32), purpose: purpose, relyingPartyId: "idp.example",
                                         relyingPartyName: "Frontdoor", timeout: 300_000)
            (options.userHandle, options.userName, options.userDisplayName) = ([1, 2, 3], "ana@example.com", "Ana")
            options.credentialIds = [[9, 9, 9], [250, 251]]
            Self.expectSame(["publicKey": options.jsonObject], "passkey \(purpose)")
        }
    }

    /// The API's and the OpenID endpoints' errors, through their own code.
    @Test func errorAnswersAreFoundationsBytes() {
        let errors = [APIError.unauthorized("Invalid Email or password."),
                      APIError(status: 401, message: "m", reason: "second_factor_required", challenge: "c",
                               challengeExpiresAt: Date(timeIntervalSince1970: 1_764_388_862.5)),
                      APIError(status: 422, message: "Validation failed", fields: ["email": ["is invalid", "can't be blank"],
                                                                                  "password_confirmation": ["doesn't match"]]),
                      APIError(status: 403, message: "refused", state: "refused", reason: "second_factor_browser_only")]
        for error in errors {
            var body: [String: Any]
            if error.status == 401 {
                body = ["error": error.message]
                if let reason = error.reason { body["reason"] = reason }
                if let challenge = error.challenge { body["challenge"] = challenge }
                if let at = error.challengeExpiresAt { body["challengeExpiresAt"] = APIContext.timestamp(at) }
            } else {
                var inner: [String: Any] = ["message": error.message, "code": 0, "status": error.status]
                if !error.fields.isEmpty { inner["errors"] = error.fields }
                body = ["error": inner]
                if let state = error.state { body["state"] = state }
                if let reason = error.reason { body["reason"] = reason }
            }
            Self.expectSame(body, "\(error)")
            #expect(error.response.body == Self.foundation(body))
        }
        let refusal = OpenIDEndpointError.badRequest("invalid_grant", "the grant is unknown")
        #expect(refusal.response.body == Self.foundation(["error": "invalid_grant", "error_description": "the grant is unknown"]))
        #expect(refusal.response.header("Content-Type") == "application/json")
    }

    // MARK: Strings, numbers, containers

    @Test func stringsAreEscapedAsCorelibsEscapesThem() {
        for byte in UInt8(0)...UInt8(0x7F) {
            let text = "a" + String(UnicodeScalar(byte)) + "b"
            Self.expectSame(["s": text, "list": [text] as [Any]], "byte \(byte)")
        }
        for text in ["", "é", "日本", "😀👩‍👩‍👧", "\u{2028}\u{2029}", "e\u{301}\u{20DD}", "\u{FEFF}\u{FFFD}\u{10FFFF}", "a/b</script>",
                     "\"\\/\u{7F}", String(repeating: "x\n", count: 500)] {
            Self.expectSame(["s": text], text)
        }
        // The escapes themselves, spelt out, so a change on either side shows.
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let expected = #"{"s":"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f"#
            + "\\\"\\\\/\u{7F}é\u{2028}\"}"
        #expect(JSONWriter.handWritten(["s": controls + "\"\\/\u{7F}é\u{2028}"]).map { String(decoding: $0, as: UTF8.self) } == expected)
    }

    @Test func numbersBooleansNullAndContainers() {
        Self.expectSame(["min": Int.min, "max": Int.max, "zero": 0, "minus": -1, "ten": 10,
                         "min64": Int64.min, "max64": Int64.max, "zero64": Int64(0), "minus64": Int64(-1)])
        Self.expectSame(["flags": [true, false, 1, 0, NSNull()] as [Any], "object": ["t": true, "f": false, "n": NSNull()] as [String: Any]])
        Self.expectSame(["a": [Any](), "o": [String: Any](), "s": [String](), "d": [String: String](), "l": [[String: Any]]()])
        Self.expectSame(["rows": [["b": 1, "a": [["y": "1", "x": "2"]] as [Any]], [:]] as [[String: Any]],
                         "deep": [[["k": [1, [Int64(2)] as [Any]] as [Any]] as [String: Any]] as [Any]] as [Any]])
    }

    // MARK: Key order

    @Test func keysAreSortedAsFoundationSortsThem() {
        Self.expectSame(["B": 1, "a": 2, "_": 3, "A1": 4, "a10": 5, "a9": 6, "A": 7, "b": 8, "a01": 9, "a1": 10, "_a": 11,
                         "0": 12, "10": 13, "9": 14, "aB": 15, "Ab": 16, "ab": 17, "AB": 18, "a1b": 19, "a01B": 20, "Z": 21, "z": 22])
        #expect(JSONWriter.handWritten(["B": 1, "a": 2, "_": 3]).map { String(decoding: $0, as: UTF8.self) } == #"{"_":3,"a":2,"B":1}"#)
    }

    /// Every pair of keys of up to three characters of `aAb01_` is ordered as the comparison JSONSerialization sorts
    /// with orders it, and a dictionary of all of them comes out in Foundation's order.
    @Test func keyOrderAgreesWithFoundationsComparisonOnEverySmallKey() {
        var keys: [[UInt8]] = [[]], level: [[UInt8]] = [[]]
        for _ in 0..<3 {
            level = level.flatMap { key in Array("aAb01_".utf8).map { key + [$0] } }
            keys += level
        }
        var disagreements: [String] = []
        for a in keys {
            for b in keys where a != b && JSONKeyOrder.precedes(a, b) != Self.foundationPrecedes(a, b) {
                disagreements.append("\(String(decoding: a, as: UTF8.self)) < \(String(decoding: b, as: UTF8.self))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        Self.expectSame(Dictionary(uniqueKeysWithValues: keys.enumerated().map { (String(decoding: $1, as: UTF8.self), $0) }))
    }

    @Test func keyOrderAgreesWithFoundationOnRandomKeys() {
        var random = SeededRandom(seed: 0x1C39)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_".utf8)
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let a = (0..<random.below(14)).map { _ in letters[random.below(letters.count)] }
            var b = random.below(2) == 0 ? a : (0..<random.below(14)).map { _ in letters[random.below(letters.count)] }
            if !b.isEmpty, random.below(2) == 0 { b[random.below(b.count)] = letters[random.below(letters.count)] }
            if a != b, JSONKeyOrder.precedes(a, b) != Self.foundationPrecedes(a, b) {
                disagreements.append("\(String(decoding: a, as: UTF8.self)) < \(String(decoding: b, as: UTF8.self))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    /// The comparison corelibs' JSONWriter sorts keys with.
    static func foundationPrecedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let (first, second) = (String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
        return first.compare(second, options: [.numeric, .caseInsensitive, .forcedOrdering], range: first.startIndex..<first.endIndex,
                             locale: NSLocale.system) == .orderedAscending
    }

    // MARK: Random values

    @Test func randomValuesAreFoundationsBytes() {
        var random = SeededRandom(seed: 20_261_129)
        for round in 0..<3000 {
            var object: [String: Any] = [:]
            for _ in 0..<random.below(6) { object[random.key()] = random.value(depth: 0) }
            Self.expectSame(object, "round \(round)")
        }
    }

    // MARK: Falling back

    @Test func whatTheWriterDoesNotKnowIsLeftToFoundation() {
        let unknown: [(String, [String: Any])] = [
            ("double", ["d": 1.5, "s": "x"]), ("whole double", ["d": 2.0]), ("nested double", ["o": ["d": 0.1] as [String: Any]]),
            ("non-ASCII key", ["é": 1, "e": 2, "f": 3]), ("key with a hyphen", ["a-b": 1, "a_b": 2]), ("key with a space", ["a b": 1]),
            ("long number in a key", ["a1234567890123456789": 1, "a2": 2]),
            ("NSNumber", ["n": NSNumber(value: 1), "b": NSNumber(value: true)]), ("UInt", ["u": UInt.max]), ("Int8", ["i": Int8(-3)]),
            ("Optional", ["o": Optional("x") as Any, "none": Optional<String>.none as Any]), ("Bool array", ["b": [true]]),
            ("Date", ["d": Date(timeIntervalSince1970: 0)]), ("Data", ["d": Data([1])]),
        ]
        for (name, object) in unknown {
            #expect(JSONWriter.handWritten(object) == nil, "\(name)")
            #expect(JSONWriter.bytes(object) == Self.foundation(object), "\(name)")
            #expect(Response.json(object).body == Self.foundation(object), "\(name)")
        }
        #expect(String(decoding: JSONWriter.bytes(["d": 1.5]), as: UTF8.self) == #"{"d":1.5}"#)
        #expect(String(decoding: JSONWriter.bytes(["d": Date(timeIntervalSince1970: 0)]), as: UTF8.self) == "{}")  // Foundation throws
        #expect(JSONKeyOrder.knows(Array("a123456789012345678".utf8)) && !JSONKeyOrder.knows(Array("a1234567890123456789".utf8)))
    }
}

/// SplitMix64 with a fixed seed, and the values JSONWriterTests draws from it: the types the callers use, nested, with
/// strings of every kind of character.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    static let keyCharacters = Array("aAbBcZz_0129".utf8)
    static let scalars: [Unicode.Scalar] = (0..<0x20).map { Unicode.Scalar(UInt8($0)) }
        + Array("aZ09 _-/\\\"'<>&{}[]:,.\u{7F}é日本😀\u{2028}\u{2029}\u{301}\u{FEFF}\u{FFFD}\u{10FFFF}\u{0085}\u{00A0}".unicodeScalars)

    mutating func key() -> String { String(decoding: (0..<below(7)).map { _ in Self.keyCharacters[below(Self.keyCharacters.count)] }, as: UTF8.self) }

    mutating func string() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<below(12) { scalars.append(Self.scalars[below(Self.scalars.count)]) }
        return String(scalars)
    }

    mutating func value(depth: Int) -> Any {
        switch below(depth < 3 ? 14 : 7) {
        case 0: return string()
        case 1: return Int(bitPattern: UInt(next()))
        case 2: return Int64(below(2001) - 1000)
        case 3: return below(2) == 0
        case 4: return NSNull()
        case 5: return [Int.min, Int.max, 0, -1][below(4)]
        case 6: return [Int64.min, Int64.max][below(2)]
        case 7: return Dictionary((0..<below(5)).map { _ in (key(), value(depth: depth + 1)) }) { first, _ in first }
        case 8: return (0..<below(5)).map { _ in value(depth: depth + 1) }
        case 9: return (0..<below(4)).map { _ in string() }
        case 10: return Dictionary((0..<below(4)).map { _ in (key(), string()) }) { first, _ in first }
        case 11: return (0..<below(3)).map { _ in Dictionary((0..<below(3)).map { _ in (key(), value(depth: depth + 2)) }) { first, _ in first } }
        case 12: return (0..<below(3)).map { _ in Dictionary((0..<below(3)).map { _ in (key(), string()) }) { first, _ in first } }
        default: return Dictionary((0..<below(3)).map { _ in (key(), (0..<below(3)).map { _ in string() }) }) { first, _ in first }
        }
    }
}
