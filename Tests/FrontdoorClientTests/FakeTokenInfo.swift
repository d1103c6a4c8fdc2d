// FakeTokenInfo.swift: a stand-in for Google's tokeninfo endpoint, so the social stack checks the client's provider
// tokens with something real over HTTP: python3's standard library on a free loopback port, one per test process,
// stopped at exit. Its answers, by token:
// (Tokens have two dot-separated parts: three would make the server ask as for an ID token.)
//   ya29.good_<label>    200 {"aud": clientID, "sub": "<label>", "email": "<label>@example.com", "email_verified": "true",
//                         "name": "Test <label>", "expires_in": "3600"}
//   ya29.other_<label>   the same for another client (aud "someone-else"): the server must refuse it
//   anything else        400 {"error": "invalid_token"}
// And X's two endpoints, for the stack's "x" provider (client id `xClientID`):
//   POST /x/token        HTTP Basic with the X client, code "xcode_<label>" and code_verifier "verifier_<label>" →
//                        200 {"access_token": "xat_<label>", "refresh_token", …}; anything else 400 invalid_request
//   GET /x/users/me      Bearer "xat_<label>" → {"data": {"id": "<label>", "name", "username"}} (no email); else 401
// Every token it was asked about is appended, one a line, to <folder>/tokeninfo.log; X's token requests as
// "x-token <code> <code_verifier> <redirect_uri>".
import Foundation

enum FakeTokenInfo {
    static let clientID = "web-test.apps.googleusercontent.com"
    static let xClientID = "x-test-client"
    static let xRedirectURI = "com.example.frontdoor:/x-callback"

    /// An authorization code and its PKCE verifier the stand-in redeems for `label` (an X user with no address).
    static func xCode(_ label: String) -> (code: String, verifier: String) { ("xcode_\(label)", "verifier_\(label)") }

    /// A token the stand-in accepts for `label` (also the subject; the address is <label>@example.com).
    static func token(_ label: String) -> String { "ya29.good_\(label)" }

    /// A token the stand-in describes as made for another app.
    static func otherAppsToken(_ label: String) -> String { "ya29.other_\(label)" }

    private static let script = #"""
import base64, http.server, json, sys, urllib.parse
client, log, x_client = sys.argv[1], sys.argv[2], sys.argv[3]
class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_POST(self):
        form = urllib.parse.parse_qs(self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode())
        code, verifier = form.get("code", [""])[0], form.get("code_verifier", [""])[0]
        with open(log, "a") as out:
            out.write("x-token %s %s %s\n" % (code, verifier, form.get("redirect_uri", [""])[0]))
        basic = self.headers.get("Authorization", "")
        who = base64.b64decode(basic[6:]).decode().partition(":")[0] if basic.startswith("Basic ") else ""
        label = code[len("xcode_"):] if code.startswith("xcode_") else ""
        if self.path == "/x/token" and who == x_client and label and verifier == "verifier_" + label:
            self.answer(200, {"token_type": "bearer", "access_token": "xat_" + label, "refresh_token": "xrt_" + label,
                              "expires_in": 7200, "scope": "users.read tweet.read offline.access"})
        else:
            self.answer(400, {"error": "invalid_request", "error_description": "Value passed for the authorization code was invalid."})
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path == "/x/users/me":
            bearer = self.headers.get("Authorization", "")
            label = bearer[len("Bearer xat_"):] if bearer.startswith("Bearer xat_") else ""
            if label:
                self.answer(200, {"data": {"id": label, "name": "X " + label, "username": "x" + label}})
            else:
                self.answer(401, {"title": "Unauthorized", "status": 401})
            return
        token = urllib.parse.parse_qs(url.query).get("access_token", [""])[0]
        with open(log, "a") as out:
            out.write(token + "\n")
        kind, _, label = token[len("ya29."):].partition("_") if token.startswith("ya29.") else ("", "", "")
        if url.path == "/tokeninfo" and kind in ("good", "other") and label:
            status, body = 200, {"aud": client if kind == "good" else "someone-else", "sub": label,
                                 "email": label + "@example.com", "email_verified": "true", "name": "Test " + label,
                                 "expires_in": "3600"}
        else:
            status, body = 400, {"error": "invalid_token", "error_description": "Invalid Value"}
        self.answer(status, body)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    /// Starts the stand-in writing its log into `folder`; returns its base URL (http://127.0.0.1:<port>).
    static func start(folder: String) throws -> String {
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "/usr/local/bin/python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, clientID, folder + "/tokeninfo.log", xClientID]
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        // The pipe is made and handed over while no other start can copy it (TestServer.spawning); its first line is
        // read, never its end.
        let output = try TestServer.spawning.withLock {
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return output
        }
        // SIGKILL: like frontdoor (TestServer), it inherits a signal mask with SIGTERM blocked.
        Cleanup.shared.add(process.processIdentifier, signal: SIGKILL)
        // The first line is the port; reading blocks until python printed it (or exited).
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            throw HarnessError("the fake tokeninfo did not start (python3 at \(python))")
        }
        return "http://127.0.0.1:\(port)"
    }

    /// The tokens it was asked about, oldest first.
    static func tokensAsked(_ stack: Stack) -> [String] {
        ((try? String(contentsOfFile: stack.folder + "/tokeninfo.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The `social:` section of a stack whose "google" provider checks tokens with the stand-in at `base`, and whose
    /// "x" provider (the twitter preset, bare access tokens off as by default) redeems codes and asks users/me there.
    static func socialYAML(base: String, folder: String) -> String {
        let google = [("id", "google"), ("preset", "google"), ("client_id", clientID), ("client_secret", "test-secret"),
                      ("authorization_endpoint", base + "/auth"), ("token_endpoint", base + "/token"),
                      ("userinfo_endpoint", base + "/userinfo"), ("tokeninfo_endpoint", base + "/tokeninfo")]
        let x = [("id", "x"), ("preset", "twitter"), ("client_id", xClientID), ("client_secret", "x-test-secret"),
                 ("authorization_endpoint", base + "/x/authorize"), ("token_endpoint", base + "/x/token"),
                 ("userinfo_endpoint", base + "/x/users/me")]
        let lines = ["social:", "  token_key_file: \"\(folder)/social-tokens.key\"", "  http_timeout: 5s", "  providers:"]
            + [google, x].flatMap { options in
                options.enumerated().map { index, option in "    \(index == 0 ? "- " : "  ")\(option.0): \"\(option.1)\"" }
            }
        return lines.joined(separator: "\n") + "\n"
    }
}
