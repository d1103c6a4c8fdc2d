// WireTests.swift: reading the server's JSON: the user, the two error shapes, status by status.
import AccountRules
import Foundation
@testable import FrontdoorClient
import Testing

@Suite struct WireTests {
    @Test func readsTheUserWithAndWithoutMilliseconds() throws {
        let body = Data(Fixture.userJSON(extra: #","unconfirmedEmail":"new@example.com","unknownKey":[1]"#).utf8)
        let user = try Wire.decode(Wire.UserEnvelope.self, from: body).user
        #expect(user.id == 12)
        #expect(user.email == "ann@example.com")
        #expect(user.authenticationToken == "tok-1")
        #expect(user.unconfirmedEmail == "new@example.com")
        #expect(user.createdAt == Fixture.createdAt)
        #expect(user.updatedAt == Fixture.updatedAt)
    }

    @Test func readsTheConfirmationSentAnswer() throws {
        let envelope = try Wire.decode(Wire.UserEnvelope.self, from: Data(Fixture.confirmationSent.utf8))
        #expect(envelope.confirmationSent == true)
        #expect(envelope.user == User(id: nil, email: "Ann@Example.com"))
    }

    @Test(arguments: ["", "{}", #"{"user":{"id":1}}"#, #"{"user":{"id":1,"email":"a@b","createdAt":"yesterday"}}"#])
    func unreadableAnswersAreInvalidResponses(body: String) {
        #expect(throws: FrontdoorClientError.invalidResponse) { try Wire.decode(Wire.UserEnvelope.self, from: Data(body.utf8)) }
    }

    @Test func mapsThePlain401() {
        let error = FrontdoorClientError.from(status: 401, body: Data(#"{"error":"Invalid email or password."}"#.utf8))
        #expect(error == .unauthorized(message: "Invalid email or password."))
        #expect(error.localizedDescription == "Invalid email or password.")
    }

    @Test func mapsValidationWithItsFields() {
        let body = #"{"error":{"message":"Validation failed: Email is not a valid email address, Password can't be blank","code":0,"#
            + #""status":422,"errors":{"email":["Email is not a valid email address"],"password":["Password can't be blank"]}}}"#
        #expect(FrontdoorClientError.from(status: 422, body: Data(body.utf8)) == .validation(
            message: "Validation failed: Email is not a valid email address, Password can't be blank",
            fields: ["email": ["Email is not a valid email address"], "password": ["Password can't be blank"]]))
    }

    @Test(arguments: [
        (403, FrontdoorClientError.forbidden(message: "m")), (404, .notFound(message: "m")), (429, .throttled(message: "m")),
        (400, .server(status: 400, message: "m")), (415, .server(status: 415, message: "m")), (500, .server(status: 500, message: "m")),
        (409, .server(status: 409, message: "m")),
    ])
    func mapsTheErrorObjectByStatus(status: Int, expected: FrontdoorClientError) {
        let body = #"{"error":{"message":"m","code":0,"status":\#(status)}}"#
        #expect(FrontdoorClientError.from(status: status, body: Data(body.utf8)) == expected)
    }

    @Test func residenceStatesHaveTheirOwnErrors() {
        #expect(FrontdoorClientError.from(status: 409, body: Data(#"{"state":"pending"}"#.utf8)) == .pending)
        let refused = #"{"state":"refused","error":{"message":"This address cannot be used to sign in here.","code":0,"status":403}}"#
        #expect(FrontdoorClientError.from(status: 403, body: Data(refused.utf8))
                == .forbidden(message: "This address cannot be used to sign in here."))
    }

    @Test func aBodyThatIsNotJSONStillGivesAMessage() {
        let error = FrontdoorClientError.from(status: 502, body: Data("<html>Bad Gateway</html>".utf8))
        guard case .server(502, let message) = error else { Issue.record("got \(error)"); return }
        #expect(!message.isEmpty)
    }

    @Test func clientSideProblemsReadAsSentences() {
        var errors = ValidationErrors()
        errors.add(FieldError(key: "blank"), to: "email", displayName: "Email")
        #expect(FrontdoorClientError.invalid(errors).message == "Email can't be blank")
    }
}
