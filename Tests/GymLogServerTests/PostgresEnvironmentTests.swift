import Testing
import GymLogTestSupport

@Suite("PostgreSQL test environment")
struct PostgresEnvironmentTests {
    /// Locally without a server the PostgreSQL cases are left out, loudly; under CI=true that
    /// is a failure, never a silent skip.
    @Test func postgresStoreIsTestedOrTheSkipIsVisible() {
        guard PostgresTestDatabase.url == nil else { return }
        if PostgresTestDatabase.underCI {
            Issue.record(Comment(rawValue: "CI=true: " + PostgresTestDatabase.missingMessage))
        } else {
            print("NOTICE: the PostgreSQL store's tests are SKIPPED: " + PostgresTestDatabase.missingMessage)
        }
    }
}
