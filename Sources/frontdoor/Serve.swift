// Serve.swift: `frontdoor serve`: FastCGI on a unix socket or fd 0, or one plain CGI request (CGIRequest); the mail
// sender, the pruner (see Retention) and, with the OpenID provider on, the back-channel logout sender work in the background.
import AccountCore
import ArgumentParser
import FastCGI
import Foundation
import WebFront

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve requests over FastCGI (or answer one CGI request).")

    @OptionGroup var options: ConfigOptions

    @Option(help: "Unix socket to listen on (overrides fastcgi.socket). Without one: fd 0, as spawn-fcgi or systemd pass it.")
    var socket: String?

    @Option(name: .customLong("socket-mode"), help: "Socket file permissions in octal (overrides fastcgi.socket_mode).")
    var socketMode: String?

    @Option(help: "Worker threads (overrides fastcgi.workers).")
    var workers: Int?

    func run() throws {
        try reportingFailures {
            var configuration = try options.load()
            if let socket { configuration.fastcgi.socket = socket }
            if let socketMode {
                guard let mode = UInt32(socketMode, radix: 8), mode <= 0o777 else { throw CommandFailure("frontdoor: --socket-mode must be octal, such as 0660") }
                configuration.fastcgi.socketMode = mode
            }
            if let workers {
                guard (1...1024).contains(workers) else { throw CommandFailure("frontdoor: --workers must be between 1 and 1024") }
                configuration.fastcgi.workers = workers
            }
            let socketPath = configuration.fastcgi.socket.isEmpty ? nil : configuration.fastcgi.socket
            let cgi = socketPath == nil && Server.startedAsCGI()
            let environment = ProcessInfo.processInfo.environment
            if cgi && environment["REQUEST_METHOD"] == nil {
                throw CommandFailure("frontdoor: no socket to serve on: give --socket PATH, start it under spawn-fcgi or systemd, or run it as CGI from a web server")
            }
            // A CGI process lives for one request: no cache of session lookups (nor the listener that keeps it).
            let app = try Bootstrap.makeApp(configuration, migrating: true, sessionCache: !cgi)
            let server = Server(configuration: ServerConfiguration(
                socketPath: socketPath, socketMode: configuration.fastcgi.socketMode,
                workers: configuration.fastcgi.workers, maxBodyBytes: configuration.fastcgi.maxBodyBytes), responder: app)
            if cgi {
                try CGIRequest.serve(server, environment: environment, app: app)   // its header: signals and the bound after answering
            } else {
                let sender = MailSender(queue: app.services.mail, interval: configuration.mail.sendInterval, logger: app.site.logger)
                // Old audit rows and sent mail go in the background: once per process, at start and every retention.prune_interval.
                let pruner = Pruner(retention: app.services.retention, logger: app.site.logger)
                sender.start()
                pruner.start()
                // Apps with a backchannel_logout_uri are told when a session ends (OpenID Connect Back-Channel Logout).
                if let openID = app.site.openID { BackChannelLogout(core: app.services, openID: openID, logger: app.site.logger).start() }
                app.site.logger.info("serving", metadata: ["socket": "\(socketPath ?? "fd 0")", "workers": "\(configuration.fastcgi.workers)"])
                try server.run()
            }
        }
    }
}
