// FormFuzz.swift: the properties form-fuzz checks on one input, read as a query string or form body, a Cookie
// header, a return target (`rd`) and an Accept-Language header. A broken property stops the run (fatalError → crash).
import Foundation
import FuzzSupport
import WebFront

enum FormFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        checkForm(bytes)
        checkPercentCoding(text)
        checkCookies(text)
        checkReturnTarget(text)
        checkLanguage(text)
    }

    /// `FormData.parse`: at most `maximumPairs` names, none empty; writing the pairs back encoded and parsing again
    /// gives the same dictionary.
    static func checkForm(_ bytes: [UInt8]) {
        let form = FormData.parse(bytes)
        require(form.count <= FormData.maximumPairs, "more than maximumPairs pairs")
        require(!form.keys.contains(""), "an empty name")
        let pairs = bytes.split(separator: UInt8(ascii: "&")).count
        require(form.count <= pairs, "more names than pairs")
        let again = FormData.parse(form.map { FormData.encode($0.key) + "=" + FormData.encode($0.value) }.joined(separator: "&"))
        require(again == form, "parse(encode(form)) != form")
    }

    /// `encode` writes only unreserved characters and `%XX`; `decode` and `decodePath` undo it.
    static func checkPercentCoding(_ text: String) {
        let encoded = FormData.encode(text)
        require(encoded.utf8.allSatisfy { isUnreserved($0) || $0 == UInt8(ascii: "%") }, "encode left a reserved byte")
        require(FormData.decode(Array(encoded.utf8)) == text, "decode(encode(s)) != s")
        require(FormData.decodePath(encoded) == text, "decodePath(encode(s)) != s")
        if !text.utf8.contains(UInt8(ascii: "%")) && !text.utf8.contains(UInt8(ascii: "+")) {
            require(FormData.decode(Array(text.utf8)) == text, "decode changed text without % or +")
        }
    }

    /// `CookieHeader.parse`: names non-empty, without `;`, `=` or surrounding blanks; values without `;`; the cookies written back (quoted) parse to the same dictionary.
    static func checkCookies(_ header: String) {
        let cookies = CookieHeader.parse(header)
        for (name, value) in cookies {
            // On bytes: String.contains compares Characters, and U+037E (Greek question mark) is canonically ";".
            require(!name.isEmpty && !name.utf8.contains(UInt8(ascii: ";")) && !name.utf8.contains(UInt8(ascii: "=")), "bad cookie name")
            require(!value.utf8.contains(UInt8(ascii: ";")), "a ; in a cookie value")
            require(![" ", "\t"].contains(name.first!) && ![" ", "\t"].contains(name.last!), "cookie name not trimmed")
        }
        let again = CookieHeader.parse(cookies.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: "; "))
        require(again == cookies, "cookies written back parse differently")
        require(CookieHeader.parse(nil).isEmpty, "no header, some cookies")
    }

    static let allowed = AllowedHosts(publicURL: "https://login.example.com/account", patterns: ["app.example.org", ".Example.NET"])

    /// `ReturnTarget.checked`: the answer is the fallback or the input itself; an accepted input is a path on this site
    /// (and stays one when percent-decoded) or an http(s) URL whose host, as Foundation reads it too, is allowed.
    static func checkReturnTarget(_ raw: String) {
        let fallback = "/fallback"
        let local = ReturnTarget.checked(raw, fallback: fallback)
        require(local == fallback || local == raw, "checked returned something else")
        if local == raw && raw != fallback { require(isSafeLocalPath(raw), "accepted a non-local path: \(raw.debugDescription)") }

        let result = ReturnTarget.checked(raw, fallback: fallback, allowedHosts: allowed)
        require(result == fallback || result == raw, "checked returned something else")
        guard result == raw, raw != fallback else { return }
        require(raw.utf8.count <= 2048 && !raw.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "accepted a control character")
        if let host = ReturnTarget.absoluteHost(raw) {
            require(allowed.allows(host), "accepted a host not allowed")
            require(isAllowedHost(host), "allows() accepted \(host.debugDescription)")
            // Foundation's reading of the same URL must land on an allowed host too (no parser differential).
            if let components = URLComponents(string: raw), let foundationHost = components.host {
                let bare = foundationHost.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                require(isAllowedHost(bare) || bare == host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")),
                        "Foundation reads host \(foundationHost.debugDescription) in \(raw.debugDescription)")
                require(components.user == nil && components.password == nil, "user info accepted")
            }
        } else {
            require(isSafeLocalPath(raw), "accepted neither an allowed URL nor a local path: \(raw.debugDescription)")
        }
    }

    /// A path a browser resolves on this site: `/`, then not `/` or `\`; no backslash or control character; the same
    /// after each of three percent-decodings.
    static func isSafeLocalPath(_ path: String) -> Bool {
        var candidate = path
        for _ in 0...3 {
            let bytes = Array(candidate.utf8)
            guard bytes.first == UInt8(ascii: "/"), !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }),
                  bytes.count == 1 || bytes[1] != UInt8(ascii: "/") else { return false }
            let decoded = FormData.decodePath(candidate)
            if decoded == candidate { return true }
            candidate = decoded
        }
        return true   // still a local path after the decodings the checker does; browsers decode once at most
    }

    /// The hosts `allowed` stands for, spelled out independently of `AllowedHosts`.
    static func isAllowedHost(_ host: String) -> Bool {
        host == "login.example.com" || host == "app.example.org" || host == "example.net" || host.hasSuffix(".example.net")
    }

    static let localization = Localization(languages: ["en", "fr", "de", "pt-br"], defaultLanguage: "fr")

    /// Negotiation answers an offered language or nil; `choose` always an offered one.
    static func checkLanguage(_ header: String) {
        let offered = Set(localization.languages)
        if let language = localization.negotiate(header) { require(offered.contains(language), "negotiated \(language)") }
        if let language = localization.offered(header) { require(offered.contains(language), "offered \(language)") }
        let chosen = localization.choose(preference: header, cookie: header, acceptLanguage: header)
        require(offered.contains(chosen), "chose \(chosen)")
        require(localization.choose(preference: nil, cookie: nil, acceptLanguage: header) == (localization.negotiate(header) ?? "fr"),
                "choose without preference or cookie is not negotiate")
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) { Fuzz.require(condition, "form-fuzz", message()) }
}
