// HostResolver.swift: the one name lookup behind a support-document fetch. The fetcher checks the
// addresses it gets here and then connects to exactly those (libcurl is told them, so it never looks the name up a
// second time: no DNS rebinding). The fetcher calls it through TimedLookup, which gives the lookup the verification's
// deadline (getaddrinfo has none). Tests inject a resolver of their own. Options: none.
import IPAddresses
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks a host name up.
public protocol HostResolver: Sendable {
    /// Every address `host` has, or an error when it has none.
    func addresses(of host: String) throws -> [IPAddress]
}

/// A name with no address, or a lookup that failed.
public struct ResolutionFailure: Error, Equatable {
    public let host: String
    public let detail: String
}

/// The system's resolver: getaddrinfo (so /etc/hosts and nsswitch apply), TCP addresses of both families.
public struct SystemResolver: HostResolver {
    public init() {}

    public func addresses(of host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else { throw ResolutionFailure(host: host, detail: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var found: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let address = IPAddress(socketAddress: current.pointee.ai_addr), !found.contains(address) { found.append(address) }
            entry = current.pointee.ai_next
        }
        guard !found.isEmpty else { throw ResolutionFailure(host: host, detail: "no address") }
        return found
    }
}

extension IPAddress {
    /// The address of an AF_INET or AF_INET6 socket address; nil for any other family.
    init?(socketAddress: UnsafePointer<sockaddr>?) {
        guard let socketAddress else { return nil }
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let bytes = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
            self.init(bytes: bytes)
        case AF_INET6:
            let bytes = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            self.init(bytes: bytes)
        default:
            return nil
        }
    }
}
