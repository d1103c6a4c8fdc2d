import Testing
@testable import AccountRules

/// An address of exactly `length` UTF-8 bytes: a 64-character local part and a dotted domain.
private func address(ofLength length: Int) -> String {
    let local = String(repeating: "a", count: 64)
    var domain = "com"
    while local.count + 1 + domain.count < length {
        let room = length - (local.count + 1 + domain.count) - 1
        domain = String(repeating: "d", count: min(50, max(1, room))) + "." + domain
    }
    return local + "@" + domain
}

struct EmailFormatTests {
    @Test(arguments: [
        "ann@example.com",
        "Ann.Lee+news@mail.example.co.uk",
        "o'brien@example.ie",
        "x_y-z!#$%&*/=?^`{|}~@example.org",
        "ann@sub-domain.example.com",
        "josé@exämple.de",
        "ユーザー@例え.jp",
        "ann@xn--bcher-kva.example",
        "a@b.co",
    ])
    func acceptsPlausibleAddresses(_ address: String) {
        #expect(EmailFormat.isValid(address))
    }

    @Test(arguments: [
        "",
        "ann",
        "ann@",
        "@example.com",
        "ann@example",
        "ann@@example.com",
        "ann@bob@example.com",
        "an n@example.com",
        " ann@example.com",
        "ann@example.com ",
        "ann@exam ple.com",
        "ann@example.com\r\n",
        "ann@example.com\n",
        "ann\r\nBcc: eve@example.com@example.com",
        "ann@exa\rmple.com",
        "ann\t@example.com",
        "ann..lee@example.com",
        ".ann@example.com",
        "ann.@example.com",
        "ann@example..com",
        "ann@.example.com",
        "ann@example.com.",
        "ann@-example.com",
        "ann@example-.com",
        "ann@exam_ple.com",
        "\"ann\"@example.com",
        "ann(comment)@example.com",
        "ann@[192.168.0.1]",
        "ann@example.com\u{0}",
        "ann\u{200B}@example.com",
    ])
    func rejectsMalformedAddresses(_ address: String) {
        #expect(!EmailFormat.isValid(address))
    }

    @Test func acceptsUpTo254BytesAndNoMore() {
        let longest = address(ofLength: 254), tooLong = address(ofLength: 255)
        #expect(longest.utf8.count == 254 && tooLong.utf8.count == 255)
        #expect(EmailFormat.isValid(longest))
        #expect(!EmailFormat.isValid(tooLong))
    }

    @Test func limitsTheLocalPartTo64AndEachLabelTo63Bytes() {
        #expect(EmailFormat.isValid(String(repeating: "a", count: 64) + "@example.com"))
        #expect(!EmailFormat.isValid(String(repeating: "a", count: 65) + "@example.com"))
        #expect(EmailFormat.isValid("ann@" + String(repeating: "d", count: 63) + ".com"))
        #expect(!EmailFormat.isValid("ann@" + String(repeating: "d", count: 64) + ".com"))
        #expect(!EmailFormat.isValid(String(repeating: "é", count: 33) + "@example.com"), "66 bytes although 33 characters")
    }

    @Test func normalizedTrimsAndLowercases() {
        #expect(EmailFormat.normalized("  Ann.Lee@Example.COM \n") == "ann.lee@example.com")
        #expect(EmailFormat.normalized("JOSÉ@EXÄMPLE.DE") == "josé@exämple.de")
        #expect(EmailFormat.normalized("ann@example.com") == "ann@example.com")
        #expect(EmailFormat.normalized("A@B.C") == EmailFormat.normalized("a@b.c"))
    }

    @Test func trimmingWhitespaceKeepsInnerSpaces() {
        #expect(" \t a b \r\n".trimmingWhitespace() == "a b")
        #expect("   ".trimmingWhitespace() == "")
        #expect("".trimmingWhitespace() == "")
    }
}
