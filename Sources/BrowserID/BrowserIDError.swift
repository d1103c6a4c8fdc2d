// BrowserIDError.swift: the one error of the BrowserID module, worded as Persona's verifier words it.

/// A BrowserID failure, worded as Persona's verifier words it (`reason`).
public struct BrowserIDError: Error, Equatable, CustomStringConvertible, Sendable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
