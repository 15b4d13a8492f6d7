import ArgumentParser
import Foundation
import PipelineApp
import TestSupport
import Testing
import Yams

/// No Docker engine runs on the build machines: check that the compose file parses and names only commands the
/// CLI has, and that the Dockerfile ships what the program needs at run time.
@Suite struct DeploymentFilesTests {
    private func read(_ name: String) throws -> String {
        try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func composeServicesRunOnlyCommandsTheCLIHas() throws {
        let compose = try #require(try Yams.load(yaml: try read("docker-compose.yml")) as? [String: Any])
        let services = try #require(compose["services"] as? [String: Any])
        #expect(Set(services.keys) == ["postgres", "migrate", "worker", "ingest"])
        let known = Set(PipelineCommand.configuration.subcommands.compactMap { $0.configuration.commandName })
        for name in ["migrate", "worker", "ingest"] {
            let service = try #require(services[name] as? [String: Any], "service \(name)")
            let command = try #require(service["command"] as? [String], "command of \(name)")
            let subcommand = try #require(command.first)
            #expect(known.contains(subcommand), "\(name) runs '\(subcommand)', which pipeline does not have")
            let parsed = Result { try PipelineCommand.parseAsRoot(command) }
            #expect((try? parsed.get()) != nil, "\(name): pipeline \(command.joined(separator: " ")) does not parse")
        }
    }

    @Test func composeKeepsThePasswordOutOfTheConfiguration() throws {
        let compose = try read("docker-compose.yml")
        #expect(!compose.contains("postgres://pipeline:"), "no password inside DATABASE_URL")
        #expect(compose.contains("PGPASSWORD"))
    }

    @Test func imageShipsMigrationsConfigurationAndTheThreadLimit() throws {
        let dockerfile = try read("Dockerfile")
        #expect(dockerfile.contains("COPY migrations"))
        #expect(dockerfile.contains("OMP_THREAD_LIMIT=1"))
        #expect(dockerfile.contains("tesseract-ocr-eng"))
    }
}
