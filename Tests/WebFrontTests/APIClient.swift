// APIClient.swift: a native app's requests to the in-process app: JSON bodies, the API's headers, no cookies.
import Foundation
@testable import WebFront

/// Sends JSON requests as devise-ios does (Content-Type and Accept application/json) and reads JSON answers.
struct APIClient {
    let app: Frontdoor
    /// X-User-Email and X-User-Token, sent when set.
    var email: String?
    var token: String?

    init(_ app: Frontdoor) { self.app = app }

    struct Answer {
        let response: Response
        var status: Int { response.status }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:] }
        var user: [String: Any] { json["user"] as? [String: Any] ?? [:] }
        /// `error` as a string (401), or `error.message`.
        var message: String? { json["error"] as? String ?? (json["error"] as? [String: Any])?["message"] as? String }
    }

    @discardableResult
    func send(_ method: String, _ path: String, _ body: Any? = nil, headers: [String: String] = [:],
              contentType: String = "application/json") -> Answer {
        var params = ["REQUEST_METHOD": method, "REQUEST_URI": "/account/" + path, "REMOTE_ADDR": "127.0.0.1",
                      "HTTP_USER_AGENT": "ExampleApp/1.0 CFNetwork/1490", "HTTP_ACCEPT": "application/json"]
        var bytes: [UInt8] = []
        if let body {
            bytes = body as? [UInt8] ?? Array((try? JSONSerialization.data(withJSONObject: body)) ?? Data())
            params["CONTENT_TYPE"] = contentType
            params["CONTENT_LENGTH"] = String(bytes.count)
        }
        if let email { params["HTTP_X_USER_EMAIL"] = email }
        if let token { params["HTTP_X_USER_TOKEN"] = token }
        for (name, value) in headers { params["HTTP_" + name.uppercased().replacingOccurrences(of: "-", with: "_")] = value }
        return Answer(response: app.respond(to: Request(params: params, body: bytes)))
    }

    /// Signs in over the API and keeps the address and token for the next requests.
    mutating func signIn(_ email: String, _ password: String) -> Answer {
        let answer = send("POST", "v1/users/sign_in", ["user": ["email": email, "password": password]])
        self.email = email
        token = answer.user["authenticationToken"] as? String
        return answer
    }
}
