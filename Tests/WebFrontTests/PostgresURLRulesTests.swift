// PostgresURLRulesTests.swift: a PostgreSQL URL read as libpq reads it: passwords however spelled, which hosts need
// TLS, and what a message may show.
import Testing
@testable import WebFront

struct PostgresURLRulesTests {
    @Test func aPasswordIsFoundInTheUserPartOrAnyKeywordSpelling() {
        #expect(PostgresURLRules.hasPassword("postgresql://ann:pw@db/x"))
        #expect(PostgresURLRules.hasPassword("postgresql://ann@db/x?sslmode=require&pass%77ord=pw"))
        #expect(PostgresURLRules.hasPassword("postgresql://ann@db/x?%50ASSWORD=pw"), "libpq would refuse it; never let one through")
        #expect(!PostgresURLRules.hasPassword("postgresql://ann@db/x?sslpassword=keypass&application_name=a:b"))
    }

    @Test func remoteHostsNeedRequireOrStronger() {
        #expect(PostgresURLRules.lacksTLS("postgresql://ann@db.example.com/x"))
        #expect(PostgresURLRules.lacksTLS("postgresql://ann@db.example.com/x?sslmode=allow"))
        #expect(PostgresURLRules.lacksTLS("postgresql://ann@/x?host=%2Frun%2Fpg,10.1.2.3&sslmode=prefer"))
        #expect(PostgresURLRules.lacksTLS("postgresql://ann@localhost/x?hostaddr=192.0.2.1"))
        for url in ["postgresql://ann@db.example.com/x?sslmode=verify-full", "postgresql://ann@db/x?sslmode=verify-ca",
                    "postgresql://ann@127.0.0.1:5433/x", "postgresql://ann@[::1]:5433/x", "postgresql://ann@localhost,127.9.9.9/x",
                    "postgresql:///x", "postgresql://ann@/x?host=/run/postgresql", "postgresql://ann@%2Frun%2Fpg/x"] {
            #expect(!PostgresURLRules.lacksTLS(url), "\(url)")
        }
    }

    @Test func aShownURLHidesThePasswordAndQueryValuesButWhereItConnects() {
        #expect(PostgresURLRules.redacted("postgresql://ann:pw@db:5432/x?sslmode=require&options=-csecret%3D1&pass%77ord=pw")
                == "postgresql://ann:***@db:5432/x?sslmode=require&options=***&pass%77ord=***")
        #expect(PostgresURLRules.redacted("postgresql://ann@/x?host=/run/pg") == "postgresql://ann@/x?host=/run/pg")
        #expect(PostgresURLRules.redacted("sqlite:var/frontdoor.sqlite") == "sqlite:var/frontdoor.sqlite")
    }
}
