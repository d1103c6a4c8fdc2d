// SupportDocumentTests.swift: the three forms of /.well-known/browserid (the fetcher: SupportDocumentFetchTests).
import Foundation
import Testing
@testable import BrowserID

struct SupportDocumentTests {
    @Test func theThreeFormsRoundTrip() throws {
        let key = Keys.issuer.publicKey, old = Keys.other.publicKey
        let support = SupportDocument.support(publicKey: key, keys: [key, old], authentication: "/a", provisioning: "/p")
        #expect(try SupportDocument(data: support.jsonData) == support)
        #expect(try SupportDocument(data: SupportDocument.authority("other.example").jsonData) == .authority("other.example"))
        #expect(try SupportDocument(data: SupportDocument.disabled.jsonData) == .disabled)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(support.jsonData)) as? [String: Any])
        #expect((object["public-key"] as? [String: String])?["algorithm"] == "RS")
    }

    @Test func incompleteDocumentsAreRefused() {
        for bad in ["[]", "{}", #"{"public-key":{"algorithm":"RS","n":"15","e":"3"}}"#, #"{"authority":""}"#] {
            #expect(throws: BrowserIDError.self) { try SupportDocument(data: Array(bad.utf8)) }
        }
    }
}
