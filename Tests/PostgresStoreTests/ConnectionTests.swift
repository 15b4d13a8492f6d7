import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

@Suite struct ConnectionTests {
    @Test func realImageRoundTripsThroughByteaUnchanged() async throws {
        let image = try [UInt8](Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg")))
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            try await connection.execute(script: "CREATE TABLE blobs (id int PRIMARY KEY, data bytea NOT NULL)")
            try await connection.query("INSERT INTO blobs VALUES ($1, $2)", [1, image])

            let binary = try await connection.query("SELECT data FROM blobs WHERE id = $1", [1], binaryResult: true)
            let text = try await connection.query("SELECT data, length(data) AS size FROM blobs WHERE id = $1", [1])
            await connection.close()

            #expect(try binary.first?.bytes("data") == image)
            #expect(try text.first?.bytes("data") == image)
            #expect(try text.first?.int("size") == image.count)
        }
    }

    @Test func numericValuesStayExactDecimals() async throws {
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            let amount = Decimal(string: "1234567.89")!
            let row = try await connection.query("SELECT $1::numeric(14,2) + 0.01 AS total", [amount]).first
            await connection.close()
            #expect(try row?.decimal("total") == Decimal(string: "1234567.90")!)
        }
    }

    @Test func requiredColumnsThrowNamingTheColumnInsteadOfReadingADefault() async throws {
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            let row = try #require(
                try await connection.query(
                    "SELECT NULL::timestamptz AS committed_at, 'accepted' AS status, 'approved' AS odd_status, 7 AS n"
                ).first)
            await connection.close()

            #expect(try row.requiredInt("n") == 7)
            #expect(try row.requiredValue("status", as: ExpenseStatus.self) == .accepted)
            let missing = #expect(throws: PostgresError.self) { try row.requiredDate("committed_at") }
            #expect(missing?.code == .decodingFailed)
            #expect(missing?.message.contains("'committed_at' is NULL") == true)
            let unknown = #expect(throws: PostgresError.self) {
                try row.requiredValue("odd_status", as: ExpenseStatus.self)
            }
            #expect(unknown?.message.contains("'odd_status' holds 'approved'") == true)
        }
    }

    @Test func transactionRollsBackWhenTheBodyThrows() async throws {
        struct Abort: Error {}
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            try await connection.execute(script: "CREATE TABLE notes (text text)")
            await #expect(throws: Abort.self) {
                try await connection.transaction { connection in
                    try connection.query("INSERT INTO notes VALUES ($1)", ["lost"])
                    throw Abort()
                }
            }
            try await connection.transaction { connection in
                try connection.query("INSERT INTO notes VALUES ($1)", ["kept"])
            }
            let rows = try await connection.query("SELECT text FROM notes")
            await connection.close()
            #expect(try rows.map { try $0.string("text") } == ["kept"])
        }
    }

    @Test func statementErrorsCarrySQLState() async throws {
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            try await connection.execute(script: "CREATE TABLE keys (k text PRIMARY KEY)")
            try await connection.query("INSERT INTO keys VALUES ($1)", ["a"])
            let error = await #expect(throws: PostgresError.self) {
                try await connection.query("INSERT INTO keys VALUES ($1)", ["a"])
            }
            #expect(await connection.isOpen)
            await connection.close()
            #expect(error?.sqlState == "23505")
            #expect(error?.code == .statementFailed)
            #expect(error?.description.contains("duplicate key") == true)
        }
    }

    @Test func unreachableServerIsAConnectionFailureWithoutThePassword() async throws {
        let target = PostgresTarget("postgres://someone:secret@127.0.0.1:1/nothing", connectTimeout: .seconds(2))
        let error = await #expect(throws: PostgresError.self) {
            _ = try await PostgresConnection.connect(to: target)
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.description.contains("127.0.0.1") == true)
        #expect(error?.description.contains("secret") == false)
    }

    @Test func malformedURLIsAConnectionFailure() async throws {
        let error = await #expect(throws: PostgresError.self) {
            _ = try await PostgresConnection.connect(to: PostgresTarget("postgres://host:notaport/db"))
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.description.contains("invalid") == true)
    }
}
