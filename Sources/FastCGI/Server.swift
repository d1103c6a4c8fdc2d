// Server.swift: the FastCGI responder over libfcgi: a unix socket or fd 0, N worker threads, bounded bodies.
//
// Options (ServerConfiguration):
//   socketPath    unix socket to listen on; nil: fd 0 as passed by spawn-fcgi or systemd socket activation
//   socketMode    permissions of the socket file (default 0660)
//   workers       threads, each with its own FCGX_Request looping FCGX_Accept_r (default 8)
//   backlog       listen() backlog of the socket (default 128)
//   maxBodyBytes  larger bodies are read and dropped, and the request is marked bodyTooLarge (default 64 KiB)
// Only the responder role exists (libfcgi answers other roles itself). SIGTERM ends the process:
// FCGX_Init installs its own handler, which is put back to the default right after.
import CFastCGI
import Foundation
import Locking

/// How the server listens and how much it accepts.
public struct ServerConfiguration: Sendable {
    /// The unix socket to listen on; nil: fd 0, as passed by spawn-fcgi or systemd socket activation.
    public var socketPath: String?
    /// Permissions given to the socket file after it is created.
    public var socketMode: UInt32
    /// Worker threads, each accepting and serving one request at a time.
    public var workers: Int
    /// The listen() backlog.
    public var backlog: Int32
    /// Bodies longer than this are read and dropped, and the request is marked `bodyTooLarge`.
    public var maxBodyBytes: Int

    /// A configuration; every value has the default named in the file header.
    public init(socketPath: String? = nil, socketMode: UInt32 = 0o660, workers: Int = 8, backlog: Int32 = 128, maxBodyBytes: Int = 65_536) {
        self.socketPath = socketPath
        self.socketMode = socketMode
        self.workers = workers
        self.backlog = backlog
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Why serving could not start.
public struct FastCGIError: Error, CustomStringConvertible, Equatable {
    private enum Code: Equatable { case cannotOpenSocket(String), notAWebServerRequest, cannotStartWorker }
    private let code: Code

    /// The unix socket could not be created or bound.
    public static func cannotOpenSocket(_ path: String) -> FastCGIError { FastCGIError(code: .cannotOpenSocket(path)) }
    /// Started as CGI but the environment holds no request (someone ran the binary by hand).
    public static let notAWebServerRequest = FastCGIError(code: .notAWebServerRequest)
    /// A worker thread could not be started.
    public static let cannotStartWorker = FastCGIError(code: .cannotStartWorker)

    /// The message, prefixed "fastcgi: ".
    public var description: String {
        switch code {
        case .cannotOpenSocket(let path): "fastcgi: cannot listen on \(path)"
        case .notAWebServerRequest: "fastcgi: started as CGI but there is no request (REQUEST_METHOD is not set)"
        case .cannotStartWorker: "fastcgi: cannot start a worker thread"
        }
    }
}

/// Serves a `Responder` over FastCGI (or one request over plain CGI).
public final class Server: Sendable {
    /// How this server listens and how much it accepts.
    public let configuration: ServerConfiguration
    private let responder: any Responder
    private let listener = Listener()

    /// A server that answers every request with `responder`; nothing happens until `run()` or `serveCGI`.
    public init(configuration: ServerConfiguration, responder: any Responder) {
        self.configuration = configuration
        self.responder = responder
    }

    /// True when the process was started as plain CGI (fd 0 is not a listening socket).
    public static func startedAsCGI() -> Bool {
        initialiseLibrary()
        return FCGX_IsCGI() != 0
    }

    /// FCGX_Init, then SIGTERM back to its default and unblocked, so the process ends on it even when the parent started
    /// it with SIGTERM blocked (a blocked mask is inherited through exec; Foundation's Process does that).
    private static func initialiseLibrary() {
        FCGX_Init()
        signal(SIGTERM, SIG_DFL)
        var terminate = sigset_t()
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &terminate, nil)
    }

    /// Serves until the process is signalled or `shutdown()` is called.
    public func run() throws {
        Self.initialiseLibrary()
        let fd: Int32
        if let path = configuration.socketPath {
            fd = try Self.listen(on: path, backlog: configuration.backlog)
            chmod(path, mode_t(configuration.socketMode))
        } else {
            fd = 0
        }
        listener.set(fd)
        var threads: [pthread_t] = []
        var failed = false
        for _ in 0..<max(1, configuration.workers) {
            guard let thread = spawnThread({ [self] in serve(on: fd) }) else {
                failed = true
                shutdown()   // the workers already started stop too, so none outlives run()
                break
            }
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
        if configuration.socketPath != nil, let fd = listener.take() { close(fd) }
        if failed { throw FastCGIError.cannotStartWorker }
    }

    /// A listening unix socket at `path`, replacing a stale socket file (never another kind of file).
    /// Done here rather than with FCGX_OpenSocket, which calls exit() when bind fails.
    static func listen(on path: String, backlog: Int32) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw FastCGIError.cannotOpenSocket(path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw FastCGIError.cannotOpenSocket(path) }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FastCGIError.cannotOpenSocket(path) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            close(fd)
            throw FastCGIError.cannotOpenSocket(path)
        }
        return fd
    }

    /// Stops accepting: worker threads finish their request and `run()` returns.
    /// Only shuts the socket down (accept then fails in every worker); `run()` closes it once they are gone,
    /// so no worker can ever accept on a reused descriptor number. (FCGX_ShutdownPending is not used: it is
    /// a process-wide flag that would stop every later server too.)
    public func shutdown() {
        guard let fd = listener.current() else { return }
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// One worker: accept, read, respond, finish, until accepting fails.
    private func serve(on fd: Int32) {
        var request = FCGX_Request()
        guard FCGX_InitRequest(&request, fd, 0) == 0 else { return }
        while FCGX_Accept_r(&request) >= 0 {
            let params = Self.params(request.envp)
            let (body, tooLarge) = Self.readBody(length: params["CONTENT_LENGTH"], limit: configuration.maxBodyBytes) { buffer, count in
                Int(FCGX_GetStr(buffer, Int32(count), request.in))
            }
            let response = responder.respond(to: Request(params: params, body: body, bodyTooLarge: tooLarge))
            let bytes = response.serialized()
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { _ = FCGX_PutStr($0.baseAddress, Int32($0.count), request.out) }
            }
            FCGX_Finish_r(&request)
        }
        FCGX_Free(&request, 0)
    }

    /// Plain CGI: the request in `environment` and on `input`, the response on `output`.
    public func serveCGI(environment: [String: String], input: Int32 = 0, output: Int32 = 1) throws {
        guard environment["REQUEST_METHOD"] != nil else { throw FastCGIError.notAWebServerRequest }
        let (body, tooLarge) = Self.readBody(length: environment["CONTENT_LENGTH"], limit: configuration.maxBodyBytes) { buffer, count in
            while true {
                let n = read(input, buffer, count)
                if n >= 0 || errno != EINTR { return n }
            }
        }
        let bytes = responder.respond(to: Request(params: environment, body: body, bodyTooLarge: tooLarge)).serialized()
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(output, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }   // the web server went away: nothing more to do
            written += n
        }
    }

    /// Reads CONTENT_LENGTH bytes through `read` (which may return short counts). Over `limit`, the body
    /// is read in chunks and dropped (up to 16 MiB, so the web server doesn't see a broken pipe).
    /// Not API: SPI for the fuzz targets (fuzz/) and FastCGITests, through `@_spi(Testing) import FastCGI`.
    @_spi(Testing) public static func readBody(length: String?, limit: Int, read: (UnsafeMutablePointer<CChar>, Int) -> Int) -> ([UInt8], Bool) {
        // nginx passes an empty CONTENT_LENGTH with every GET: no trimming asked of Foundation for that.
        guard let length, !length.isEmpty, let length = Int(length.trimmingCharacters(in: .whitespaces)), length > 0 else { return ([], false) }
        let tooLarge = length > limit
        let toRead = tooLarge ? min(length, 16 << 20) : length
        var body: [UInt8] = []
        if !tooLarge { body.reserveCapacity(min(length, 1 << 20)) }   // grows as bytes arrive, never from the header alone
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var got = 0
        while got < toRead {
            let want = min(chunk.count, toRead - got)
            let n = chunk.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { read($0.baseAddress!, want) } }
            if n <= 0 { break }   // end of input or an error: the body is what arrived
            if !tooLarge { body.append(contentsOf: chunk[0..<n]) }
            got += n
        }
        return (body, tooLarge)
    }

    /// The NAME=VALUE strings of a FastCGI param array, split at each one's first `=` (Params).
    /// Not API: SPI for the fuzz targets (fuzz/) and FastCGITests, through `@_spi(Testing) import FastCGI`.
    @_spi(Testing) public static func params(_ envp: FCGX_ParamArray?) -> Params {
        Params(cStrings: envp)
    }
}

/// The listening descriptor, shared between `run()` and `shutdown()`.
private final class Listener: @unchecked Sendable {
    private let lock = Lock()
    private var fd: Int32?

    func set(_ fd: Int32) { lock.withLock { self.fd = fd } }
    func current() -> Int32? { lock.withLock { fd } }
    func take() -> Int32? { lock.withLock { defer { fd = nil }; return fd } }
}

/// Runs `body` on a new pthread; nil when the thread could not be created.
private func spawnThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let rc = pthread_create(&thread, nil, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, context)
    guard rc == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        return nil
    }
    return thread
}
