// APIFieldNamesTests.swift: the JSON API reads camelCase keys as snake_case field names, whatever follows a capital
// letter (a combining mark makes "N" and the mark one character, which is not ASCII as a whole).
import Testing
@testable import WebFront

@Suite struct APIFieldNamesTests {
    @Test func camelCaseBecomesSnakeCaseAndSnakeCaseStays() {
        #expect(APIContext.snakeCase("passwordConfirmation") == "password_confirmation")
        #expect(APIContext.snakeCase("password_confirmation") == "password_confirmation")
        #expect(APIContext.snakeCase("Email") == "email")
    }

    @Test func aCapitalCarryingACombiningMarkIsLoweredToo() {
        let name = APIContext.snakeCase("pyN\u{352}e")
        #expect(name == "py_n\u{352}e")
        #expect(!name.unicodeScalars.contains { (0x41...0x5A).contains($0.value) })
        #expect(APIContext.snakeCase(name) == name, "idempotent")
    }
}
