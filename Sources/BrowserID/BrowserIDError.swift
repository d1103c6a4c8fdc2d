// BrowserIDError.swift: the errors of the BrowserID module: a failure worded as Persona's verifier words it, and
// "busy" (too many support documents being fetched at once), which a verifier answers as such, not as a failure.

/// A BrowserID failure, worded as Persona's verifier words it (`reason`).
public struct BrowserIDError: Error, Equatable, CustomStringConvertible, Sendable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A support-document source is already fetching as much as it may at once: the verification stops at once instead of
/// waiting for a turn, so slow identity providers can hold at most that many workers (VerificationResult.busy).
public struct FetchesBusy: Error, Equatable, Sendable {
    public init() {}
}
