// Responder.swift: the one protocol an application implements; it never sees FastCGI.

/// Answers requests. Called from several worker threads at once, so it must be `Sendable`.
public protocol Responder: Sendable {
    /// The response to `request`; errors are the responder's to turn into responses.
    func respond(to request: Request) -> Response
}
