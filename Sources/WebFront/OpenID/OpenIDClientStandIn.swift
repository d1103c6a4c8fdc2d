// OpenIDClientStandIn.swift: TEMPORARY. The contract's AccountCore `OpenIDClient` (owner: core), declared here only until
// i38-core lands it; this file is deleted in the commit that merges i38-core (coordinator: if both branches are merged
// and this file is still here, delete it).
import Crypto
import Foundation

public struct OpenIDClient: Sendable, Equatable {
    public enum Source: String, Sendable { case configuration, database }
    public enum SubjectType: String, Sendable { case `public`, pairwise }
    public var id: String
    public var name: String
    public var secretDigests: [Data]
    public var isPublic: Bool
    public var redirectURIs: [String]
    public var postLogoutRedirectURIs: [String]
    public var scopes: [String]
    public var allow: String
    public var requiresSecondFactor: Bool
    public var firstParty: Bool
    public var subjectType: SubjectType
    public var backchannelLogoutURI: String?
    public var apiSignIn: Bool
    public var source: Source
    public var createdAt: Date?

    public init(id: String, name: String, secretDigests: [Data], isPublic: Bool, redirectURIs: [String], postLogoutRedirectURIs: [String] = [],
                scopes: [String], allow: String = "", requiresSecondFactor: Bool = false, firstParty: Bool = false,
                subjectType: SubjectType = .public, backchannelLogoutURI: String? = nil, apiSignIn: Bool = false,
                source: Source = .configuration, createdAt: Date? = nil) {
        (self.id, self.name, self.secretDigests, self.isPublic, self.redirectURIs) = (id, name, secretDigests, isPublic, redirectURIs)
        (self.postLogoutRedirectURIs, self.scopes, self.allow, self.requiresSecondFactor) = (postLogoutRedirectURIs, scopes, allow, requiresSecondFactor)
        (self.firstParty, self.subjectType, self.backchannelLogoutURI, self.apiSignIn) = (firstParty, subjectType, backchannelLogoutURI, apiSignIn)
        (self.source, self.createdAt) = (source, createdAt)
    }

    public func acceptsSecret(_ secret: String) -> Bool {
        let digest = Data(SHA256.hash(data: Data(secret.utf8)))
        return secretDigests.reduce(false) { found, stored in found || stored == digest }
    }
}
