import FrontdoorClient
import Testing

@Suite struct FrontdoorClientTests {
    @Test func builds() { _ = FrontdoorClient() }
}
