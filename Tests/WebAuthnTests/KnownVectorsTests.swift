// KnownVectorsTests.swift: responses made by real authenticators and browsers, not by TestAuthenticator, so the
// parsing is checked against bytes nobody here wrote. The data (base64url, as a browser hands it over) are the public
// test vectors of duo-labs/py_webauthn (tests/test_verify_authentication_response.py and examples/verification.py):
// an RS256 registration with attestation "none" and its assertion, an ES256 assertion from an older browser (extra
// clientData members "clientExtensions" and "hashAlgorithm"), and an EdDSA assertion; RP ID "localhost", origin
// http://localhost:5000.
import Encodings
import Testing
@testable @_spi(Testing) import WebAuthn

struct KnownVectorsTests {
    let party = RelyingParty(id: "localhost", origins: ["http://localhost:5000"])

    func b(_ text: String) -> [UInt8] { Base64URL.decode(text)! }

    static let rsaKey = "pAEDAzkBACBZAQDfV20epzvQP-HtcdDpX-cGzdOxy73WQEvsU7Dnr9UWJophEfpngouvgnRLXaEUn_d8HGkp_HIx8rrpkx4BVs6X_B6ZjhLlezjIdJbLbVeb92BaEsmNn1HW2N9Xj2QM8cH-yx28_vCjf82ahQ9gyAr552Bn96G22n8jqFRQKdVpO-f-bvpvaP3IQ9F5LCX7CUaxptgbog1SFO6FI6ob5SlVVB00lVXsaYg8cIDZxCkkENkGiFPgwEaZ7995SCbiyCpUJbMqToLMgojPkAhWeyktu7TlK6UBWdJMHc3FPAIs0lH_2_2hKS-mGI1uZAFVAfW1X-mzKL0czUm2P1UlUox7IUMBAAE"

    @Test func anRS256RegistrationWithAttestationNone() throws {
        let credential = try party.verifyRegistration(
            clientDataJSON: b("eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiQ2VUV29nbWcwY2NodWlZdUZydjhEWFhkTVpTSVFSVlpKT2dhX3hheVZWRWNCajBDdzN5NzN5aEQ0RmtHU2UtUnJQNmhQSkpBSW0zTFZpZW40aFhFTGciLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9"),
            attestationObject: b("o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVkBZ0mWDeWIDoxodDQXD2R2YFuP5K65ooYyx5lc87qDHZdjRQAAAAAAAAAAAAAAAAAAAAAAAAAAACBmggo_UlC8p2tiPVtNQ8nZ5NSxst4WS_5fnElA2viTq6QBAwM5AQAgWQEA31dtHqc70D_h7XHQ6V_nBs3Tscu91kBL7FOw56_VFiaKYRH6Z4KLr4J0S12hFJ_3fBxpKfxyMfK66ZMeAVbOl_wemY4S5Xs4yHSWy21Xm_dgWhLJjZ9R1tjfV49kDPHB_ssdvP7wo3_NmoUPYMgK-edgZ_ehttp_I6hUUCnVaTvn_m76b2j9yEPReSwl-wlGsabYG6INUhTuhSOqG-UpVVQdNJVV7GmIPHCA2cQpJBDZBohT4MBGme_feUgm4sgqVCWzKk6CzIKIz5AIVnspLbu05SulAVnSTB3NxTwCLNJR_9v9oSkvphiNbmQBVQH1tV_psyi9HM1Jtj9VJVKMeyFDAQAB"),
            challenge: b("CeTWogmg0cchuiYuFrv8DXXdMZSIQRVZJOga_xayVVEcBj0Cw3y73yhD4FkGSe-RrP6hPJJAIm3LVien4hXELg"))
        #expect(credential.credentialId == b("ZoIKP1JQvKdrYj1bTUPJ2eTUsbLeFkv-X5xJQNr4k6s"))
        #expect(credential.publicKey == b(Self.rsaKey))
        #expect(credential.algorithm == -257 && credential.signCount == 0 && credential.aaguid == Array(repeating: 0, count: 16))
        #expect(credential.userVerified && credential.attestationFormat == "none")
    }

    @Test func anRS256Assertion() throws {
        let verified = try party.verifyAssertion(
            clientDataJSON: b("eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiaVBtQWkxUHAxWEw2b0FncTNQV1p0WlBuWmExekZVRG9HYmFRMF9LdlZHMWxGMnMzUnRfM280dVN6Y2N5MHRtY1RJcFRUVDRCVTFULUk0bWFhdm5kalEiLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9"),
            authenticatorData: b("SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ"),
            signature: b("iOHKX3erU5_OYP_r_9HLZ-CexCE4bQRrxM8WmuoKTDdhAnZSeTP0sjECjvjfeS8MJzN1ArmvV0H0C3yy_FdRFfcpUPZzdZ7bBcmPh1XPdxRwY747OrIzcTLTFQUPdn1U-izCZtP_78VGw9pCpdMsv4CUzZdJbEcRtQuRS03qUjqDaovoJhOqEBmxJn9Wu8tBi_Qx7A33RbYjlfyLm_EDqimzDZhyietyop6XUcpKarKqVH0M6mMrM5zTjp8xf3W7odFCadXEJg-ERZqFM0-9Uup6kJNLbr6C5J4NDYmSm3HCSA6lp2iEiMPKU8Ii7QZ61kybXLxsX4w4Dm3fOLjmDw"),
            publicKey: b(Self.rsaKey), storedSignCount: 0,
            challenge: b("iPmAi1Pp1XL6oAgq3PWZtZPnZa1zFUDoGbaQ0_KvVG1lF2s3Rt_3o4uSzccy0tmcTIpTTT4BU1T-I4maavndjQ"))
        #expect(verified == VerifiedAssertion(signCount: 1, userVerified: true, backedUp: false, counterWentBack: false))
    }

    @Test func anES256AssertionWithoutUserVerification() throws {
        let response = (
            clientData: b("eyJjaGFsbGVuZ2UiOiJ4aTMwR1BHQUZZUnhWRHBZMXNNMTBEYUx6VlFHNjZudi1fN1JVYXpIMHZJMll2RzhMWWdERW52TjVmWlpOVnV2RUR1TWk5dGUzVkxxYjQyTjBma0xHQSIsImNsaWVudEV4dGVuc2lvbnMiOnt9LCJoYXNoQWxnb3JpdGhtIjoiU0hBLTI1NiIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6NTAwMCIsInR5cGUiOiJ3ZWJhdXRobi5nZXQifQ"),
            authData: b("SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MBAAAATg"),
            signature: b("MEUCIGisVZOBapCWbnJJvjelIzwpixxIwkjCCb5aCHafQu68AiEA88v-2pJNNApPFwAKFiNuf82-2hBxYW5kGwVweeoxCwo"))
        let key = b("pQECAyYgASFYIIeDTe-gN8A-zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA_Ngtkx0vGpvPHI")
        let challenge = b("xi30GPGAFYRxVDpY1sM10DaLzVQG66nv-_7RUazH0vI2YvG8LYgDEnvN5fZZNVuvEDuMi9te3VLqb42N0fkLGA")
        let verified = try party.verifyAssertion(clientDataJSON: response.clientData, authenticatorData: response.authData,
                                                 signature: response.signature, publicKey: key, storedSignCount: 77,
                                                 challenge: challenge, requireUserVerification: false)
        #expect(verified == VerifiedAssertion(signCount: 78, userVerified: false, backedUp: false, counterWentBack: false))
        #expect(throws: WebAuthnError.userNotVerified) {
            try party.verifyAssertion(clientDataJSON: response.clientData, authenticatorData: response.authData,
                                      signature: response.signature, publicKey: key, storedSignCount: 77, challenge: challenge)
        }
        #expect(throws: WebAuthnError.badSignature, "the RSA vector's key") {
            try party.verifyAssertion(clientDataJSON: response.clientData, authenticatorData: response.authData,
                                      signature: response.signature, publicKey: b(Self.rsaKey), storedSignCount: 77,
                                      challenge: challenge, requireUserVerification: false)
        }
    }

    @Test func anEdDSAAssertion() throws {
        let verified = try party.verifyAssertion(
            clientDataJSON: b("eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiZVo0ZWVBM080ank1Rkl6cURhU0o2SkROR3UwYkJjNXpJMURqUV9rTHNvMVdOcWtHNms1bUNZZjFkdFFoVlVpQldaV2xaa3pSNU1GZWVXQ3BKUlVOWHciLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9"),
            authenticatorData: b("SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MBAAAABw"),
            signature: b("RRWV8mYDRvK7YdQgdtZD4pJ2dh1D_IWZ_D6jsZo6FHJBoenbj0CVT5nA20vUzlRhN4R6dOEUHmUwP1F8eRBhBg"),
            publicKey: b("pAEBAycgBiFYIMz6_SUFLiDid2Yhlq0YboyJ-CDrIrNpkPUGmJp4D3Dp"), storedSignCount: 3,
            challenge: b("eZ4eeA3O4jy5FIzqDaSJ6JDNGu0bBc5zI1DjQ_kLso1WNqkG6k5mCYf1dtQhVUiBWZWlZkzR5MFeeWCpJRUNXw"),
            requireUserVerification: false)
        #expect(verified.signCount == 7 && !verified.counterWentBack)
    }
}
