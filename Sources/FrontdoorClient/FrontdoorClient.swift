// FrontdoorClient.swift: the Swift client library for native apps (helper A builds it; see README "Native apps").
import AccountRules
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of one Frontdoor server's JSON API.
public final class FrontdoorClient: Sendable {
    public init() {}
}
