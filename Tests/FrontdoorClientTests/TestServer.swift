// TestServer.swift: a real frontdoor behind a real nginx for the integration tests, started once per test process.
//
// Options (environment): FRONTDOOR_BIN, the binary (default <package root>/.build/debug/frontdoor);
// FRONTDOOR_CLIENT_KEEP_STACK=1 keeps the stack's folder (/tmp/frontdoor-client-it-*: config, logs, outbox, database).
// The stack, like Tests/e2e/conftest.py's Stack: a temporary folder with frontdoor.yml (confirmation off, mail to an
// outbox folder sent every 0.1 s, the default argon2 (config refuses weaker); `confirming` and `closed` change one setting each,
// `social` adds a Google provider checked by FakeTokenInfo and a profile field), `frontdoor
// migrate`, `frontdoor serve` on a unix socket, nginx rendered by nginx/render on a free loopback port; ready once
// GET <base>/sign_in answers 200. Both processes are stopped when the test process exits, and the folder removed.
// Without /usr/sbin/nginx the integration suites are disabled with that reason.
import Foundation
import Locking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One running frontdoor + nginx.
struct Stack: Sendable {
    /// `http://127.0.0.1:<port>/account`
    let base: URL
    let folder: String
    var outbox: String { folder + "/outbox" }
    var logs: String { folder + "/frontdoor.log" }
}

/// Starts its stack on first use; later callers get the same one. One per configuration, each started at most once.
actor TestServer {
    /// Confirmation off: registration signs in.
    static let shared = TestServer([:])
    /// Confirmation required: registration answers confirmationSent.
    static let confirming = TestServer(["confirmation.required": "true"])
    /// Sign-up closed: registration is forbidden, a residence for an unknown address refused.
    static let closed = TestServer(["signup": "closed"])
    /// A "google" provider whose tokens FakeTokenInfo checks, an "x" provider whose codes it redeems, and a declared
    /// profile field "nickname" (2-20 characters, unique).
    static let social = TestServer([:], social: true)
    /// The native bridge on: the app origin BrowserIDBridge's tests use is listed (with none listed the bridge is off).
    static let bridge = TestServer(["browserid.allowed_origins": "http://my.app:3000"])

    static let nginx = "/usr/sbin/nginx"
    static var nginxInstalled: Bool { FileManager.default.isExecutableFile(atPath: nginx) }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static var binary: String { ProcessInfo.processInfo.environment["FRONTDOOR_BIN"] ?? root + "/.build/debug/frontdoor" }

    /// Dotted config keys ("mail.outbox") over the defaults below.
    private let settings: [String: String]
    /// Whether the stack has FakeTokenInfo and the social section.
    private let social: Bool
    private var started: Task<Stack, Error>?

    init(_ settings: [String: String], social: Bool = false) {
        self.settings = settings
        self.social = social
    }

    func stack() async throws -> Stack {
        if let started { return try await started.value }
        let settings = settings, social = social
        let task = Task { try await Self.start(settings, social: social) }
        started = task
        return try await task.value
    }

    private static func start(_ settings: [String: String], social: Bool) async throws -> Stack {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("frontdoor-client-it-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["FRONTDOOR_CLIENT_KEEP_STACK"] == nil { Cleanup.shared.remove(folder) }
        let port = try freePort()
        let config = folder + "/frontdoor.yml"
        let socket = folder + "/fcgi.sock"
        let values = [
            "public_url": "http://127.0.0.1:\(port)",
            "database.path": folder + "/frontdoor.sqlite",
            "templates.path": root + "/templates",
            "confirmation.required": "false",
            "mail.transport": "outbox",
            "mail.outbox": folder + "/outbox",
            "mail.send_interval": "0.1s",
            "mail.retry_base": "1s",
            "log.level": "info",
        ].merging(settings) { _, own in own }
        var document = yaml(values)
        if social { document += try FakeTokenInfo.socialYAML(base: FakeTokenInfo.start(folder: folder), folder: folder) + profileYAML }
        try document.write(toFile: config, atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw HarnessError("no frontdoor binary at \(binary): build it (swift build) or set FRONTDOOR_BIN")
        }
        guard try await finish(binary, ["migrate", "--config", config], folder: folder, log: folder + "/migrate.log") == 0 else { throw HarnessError("frontdoor migrate failed: " + tail(folder + "/migrate.log")) }

        let app = try launch(binary, ["serve", "--config", config, "--socket", socket, "--socket-mode", "0666", "--workers", "4"],
                             folder: folder, log: folder + "/frontdoor.log")
        // SIGKILL: started from this process, frontdoor inherits a signal mask with SIGTERM blocked and keeps it.
        Cleanup.shared.add(app.processIdentifier, signal: SIGKILL)
        try await waitUntil("the frontdoor socket", log: folder + "/frontdoor.log") {
            guard app.isRunning else { throw HarnessError("frontdoor serve exited: " + tail(folder + "/frontdoor.log")) }
            return FileManager.default.fileExists(atPath: socket)
        }

        let prefix = folder + "/nginx"
        guard try await finish(root + "/nginx/render", ["--base", "/account", "--static", root + "/static", "--socket", socket,
                                                        "--server", prefix, String(port)], folder: folder, log: folder + "/render.log") == 0 else { throw HarnessError("nginx/render failed: " + tail(folder + "/render.log")) }
        let server = try launch(nginx, ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log"],
                                folder: folder, log: folder + "/nginx.stderr")
        Cleanup.shared.add(server.processIdentifier, signal: SIGTERM)

        let stack = Stack(base: URL(string: "http://127.0.0.1:\(port)/account")!, folder: folder)
        try await waitUntil("nginx + frontdoor", log: prefix + "/error.log") {
            guard server.isRunning else { throw HarnessError("nginx exited: " + tail(folder + "/nginx.stderr")) }
            return (try? await Browser().get(stack.base.appendingPathComponent("sign_in")).status) == 200
        }
        return stack
    }

    /// Starts `path` in `folder`, its output into `log`.
    private static func launch(_ path: String, _ arguments: [String], folder: String, log: String) throws -> Process {
        let process = try prepared(path, arguments, folder: folder, log: log)
        try spawning.withLock { try process.run() }
        return process
    }

    /// Every start of a program in this test process, one at a time. Foundation's Process closes in a new child only
    /// the descriptors open when it looked; one another thread opens meanwhile stays open in the child. Were it a
    /// pipe's write end, or the socket through which Process learns that its own child ended, a server started at that
    /// moment would hold it until the test process ends, and its reader would wait for ever.
    static let spawning = Lock()

    /// Runs `path` in `folder` to its end, its output into `log` (a file, not a pipe: see `spawning`); its exit status.
    /// The end is awaited (terminationHandler, set before the start), not waitUntilExit, which would hold one of the
    /// few threads every test shares.
    static func finish(_ path: String, _ arguments: [String], folder: String, log: String) async throws -> Int32 {
        let process = try prepared(path, arguments, folder: folder, log: log)
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try spawning.withLock { try process.run() } } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    private static func prepared(_ path: String, _ arguments: [String], folder: String, log: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        return process
    }

    /// Ports handed out so far by `freePort` in this process.
    private static let handedOut = Locked(0)

    /// A loopback port nobody listens on now, never the same twice, kept as Tests/e2e/conftest.py's free_port keeps
    /// its own: below the kernel's ephemeral range (20000 up to it), so no outgoing connection can take one before
    /// nginx binds it (bind(0) picks from that range, and could give two stacks the same port); held for the rest of
    /// the process by an flock'ed file in the same folder as the e2e suite's (so two test processes, Swift or Python,
    /// never share one); the first is drawn from the pid.
    private static func freePort() throws -> Int {
        let first = 20_000
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let end = range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        guard end > first + 100 else { throw HarnessError("the ephemeral port range starts at \(end): no test ports below it") }
        let folder = NSTemporaryDirectory() + "frontdoor-e2e-ports-\(getuid())"
        mkdir(folder, 0o700)
        return try handedOut.withLock { next in
            for _ in first..<end {
                let port = first + (Int(getpid()) &* 7919 &+ next) % (end - first)
                next += 1
                guard port != 8080 else { continue }
                let lock = open(folder + "/\(port)", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
                guard lock >= 0 else { continue }
                guard flock(lock, LOCK_EX | LOCK_NB) == 0, canBind(port) else { close(lock); continue }
                return port   // `lock` stays open: the port is this process's until it ends
            }
            throw HarnessError("no free port in \(first)–\(end - 1)")
        }
    }

    /// Whether `port` can be bound on 127.0.0.1 now.
    private static func canBind(_ port: Int) -> Bool {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// The declared profile field of the social stack.
    private static let profileYAML = """
        profile:
          fields:
            - name: nickname
              label: Nickname
              min_length: 2
              max_length: 20
              unique: true

        """

    /// Dotted keys as a two-level YAML document (`mail.outbox` → `mail:` / `  outbox: "…"`).
    private static func yaml(_ values: [String: String]) -> String {
        var top: [String] = []
        var sections: [String: [String]] = [:]
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                sections[parts[0], default: []].append("  \(parts[1]): \"\(value)\"")
            } else {
                top.append("\(key): \"\(value)\"")
            }
        }
        return (top + sections.sorted { $0.key < $1.key }.flatMap { ["\($0.key):"] + $0.value }).joined(separator: "\n") + "\n"
    }

    static func tail(_ path: String) -> String {
        String((try? String(contentsOfFile: path, encoding: .utf8))?.suffix(3000) ?? "(no \(path))")
    }
}

/// Polls `condition` every 50 ms until it holds, for at most `seconds`.
func waitUntil(_ what: String, seconds: Double = 30, log: String? = nil, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(nanoseconds: 50_000_000)
    }
    throw HarnessError("timed out waiting for \(what)" + (log.map { ": " + TestServer.tail($0) } ?? ""))
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The processes to stop and the folders to remove when the test process exits.
final class Cleanup: @unchecked Sendable {
    static let shared = Cleanup()
    private let lock = Lock()
    private var processes: [(pid: pid_t, signal: Int32)] = []
    private var folders: [String] = []

    private init() {
        atexit {
            let (processes, folders) = Cleanup.shared.lock.withLock { (Cleanup.shared.processes, Cleanup.shared.folders) }
            for process in processes { kill(process.pid, process.signal) }
            // Wait (at most 5 s) until they are gone, so nothing writes into a folder being removed.
            let deadline = Date().addingTimeInterval(5)
            for process in processes {
                while waitpid(process.pid, nil, WNOHANG) == 0, Date() < deadline { usleep(10_000) }
            }
            for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
        }
    }

    /// Sends `signal` to `pid` at exit.
    func add(_ pid: pid_t, signal: Int32) { lock.withLock { processes.append((pid, signal)) } }

    /// Removes `folder` at exit, after the processes have ended.
    func remove(_ folder: String) { lock.withLock { folders.append(folder) } }
}
