// FetchTarget.swift: where another identity provider's support document may be fetched from, decided before any
// connection (`/verify` must not be a request forger or port scanner). An issuer is `host`, `host:port`,
// `[IPv6]` or `[IPv6]:port`. Its name is looked up once; unless the issuer is in `allowedHosts`
// (`browserid.fetch_allowed_hosts`: an operator's own private IdP), every address must be public (PublicAddress.swift)
// and the port must be 443. The fetch then connects to those addresses only, over HTTPS.
// Options: allowedHosts; onlyAllowed (`browserid.fetch_only_allowed_hosts`: no other issuer is fetched from at all);
// httpHosts (tests only: issuer → loopback `address:port` fetched over plain http, and only when the issuer is also in
// allowedHosts); resolver (the system's, or a test's).
import IPAddresses

/// A support-document fetch that is allowed: the URL and the checked addresses libcurl may connect to.
struct FetchTarget: Equatable {
    let scheme: String
    /// The host as the URL has it (an IPv6 literal in brackets).
    let host: String
    let port: Int
    let addresses: [IPAddress]

    var url: String { "\(scheme)://\(host):\(port)/.well-known/browserid" }

    /// libcurl's CURLOPT_RESOLVE entry: the name at this port is these addresses, so curl looks nothing up itself.
    var pin: String {
        "\(host):\(port):" + addresses.map { $0.isIPv4 ? $0.description : "[\($0)]" }.joined(separator: ",")
    }
}

/// Why a fetch was refused or failed; the detail goes to the log, never to the relying party.
struct FetchRefusal: Error, Equatable {
    let detail: String
}

/// The rules that turn an issuer into a FetchTarget.
struct FetchRules: Sendable {
    let allowedHosts: Set<String>
    let onlyAllowed: Bool
    let httpHosts: [String: String]
    let resolver: any HostResolver

    init(allowedHosts: Set<String>, onlyAllowed: Bool = false, httpHosts: [String: String], resolver: any HostResolver) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.onlyAllowed = onlyAllowed
        self.httpHosts = Dictionary(httpHosts.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.resolver = resolver
    }

    func target(for issuer: String) throws -> FetchTarget {
        let issuer = issuer.lowercased()
        guard let (host, port) = Self.split(issuer) else { throw FetchRefusal(detail: "malformed issuer") }
        let allowed = allowedHosts.contains(issuer)
        if onlyAllowed && !allowed { throw FetchRefusal(detail: "\(issuer) is not in browserid.fetch_allowed_hosts") }
        if let address = httpHosts[issuer] {
            guard allowed else { throw FetchRefusal(detail: "\(issuer) is in browserid.http_hosts but not in browserid.fetch_allowed_hosts") }
            guard let (addressHost, addressPort) = Self.split(address), let addressPort else {
                throw FetchRefusal(detail: "browserid.http_hosts entry for \(issuer) is not address:port")
            }
            return FetchTarget(scheme: "http", host: host, port: addressPort, addresses: try lookUp(addressHost))
        }
        if !allowed, let port, port != 443 {
            throw FetchRefusal(detail: "port \(port) is fetched from only for hosts in browserid.fetch_allowed_hosts")
        }
        let addresses = try lookUp(host)
        if !allowed, let address = addresses.first(where: { !$0.isPublic }) {
            throw FetchRefusal(detail: "\(host) has the non-public address \(address)")
        }
        return FetchTarget(scheme: "https", host: host, port: port ?? 443, addresses: addresses)
    }

    /// The host's addresses: the literal itself, or the resolver's answer.
    private func lookUp(_ host: String) throws -> [IPAddress] {
        let literal = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        if let address = IPAddress(literal) { return [address] }
        do { return try resolver.addresses(of: host) } catch let failure as ResolutionFailure {
            throw FetchRefusal(detail: "\(host) does not resolve: \(failure.detail)")
        }
    }

    /// `host[:port]` or `[v6][:port]` → (host as in a URL, port); nil when malformed.
    static func split(_ text: String) -> (host: String, port: Int?)? {
        var host = Substring(text), portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let literal = text[text.index(after: text.startIndex)..<close]
            guard literal.contains(":"), IPAddress(String(literal)) != nil else { return nil }
            host = text[...close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty, host.count <= 253, !host.hasPrefix("."), !host.hasPrefix("-"),
                  host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }) else { return nil }
        }
        guard let portText else { return (String(host), nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }
}
