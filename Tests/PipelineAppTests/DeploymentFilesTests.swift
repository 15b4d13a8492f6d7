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
        #expect(Set(services.keys) == ["postgres", "migrate", "worker", "ingest", "serve"])
        let known = Set(PipelineCommand.configuration.subcommands.compactMap { $0.configuration.commandName })
        for name in ["migrate", "worker", "ingest", "serve"] {
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

    @Test func imageShipsConfigurationAndTheThreadLimit() throws {
        let dockerfile = try read("Dockerfile")
        #expect(dockerfile.contains("COPY pipeline.yaml"))
        #expect(dockerfile.contains("OMP_THREAD_LIMIT=1"))
        #expect(dockerfile.contains("tesseract-ocr-eng"))
    }

    /// Issue 14 item 12: the build stage's Swift image is the toolchain Package.swift asks for.
    @Test func buildImageMatchesTheSwiftToolsVersion() throws {
        let manifest = try read("Package.swift")
        let tools = try #require(manifest.firstMatch(of: /^\/\/ swift-tools-version:\s*(\d+)\.(\d+)/))
        let dockerfile = try read("Dockerfile")
        let image = try #require(dockerfile.firstMatch(of: /(?m)^FROM swift:(\d+)\.(\d+)[.\w-]* AS build$/))
        #expect(
            image.1 == tools.1 && image.2 == tools.2,
            "FROM swift:\(image.1).\(image.2) but swift-tools-version \(tools.1).\(tools.2)")
    }

    /// Issue 14 item 12: the image is built by the script the demo uses, not by steps of its own.
    @Test func imageAndDemoBuildWithTheSameScript() throws {
        let buildScript = try read("scripts/build-release")
        #expect(buildScript.contains("scripts/install-dependencies"))
        #expect(buildScript.contains("swift build -c release"))
        #expect(try read("scripts/demo").contains("scripts/build-release"))

        let dockerfile = try read("Dockerfile")
        let stages = dockerfile.components(separatedBy: "\nFROM ")
        try #require(stages.count == 3, "a build stage and a runtime stage")
        let buildStage = stages[1]
        #expect(buildStage.contains("RUN scripts/build-release"))
        #expect(!buildStage.contains("apt-get install"), "packages come from scripts/install-dependencies")
        #expect(!buildStage.contains("--product"), "the build command comes from scripts/build-release")
    }

    /// Issue 14 item 12: build output and the postgres-owned cluster stay out of the build context.
    @Test func buildContextLeavesOutBuildOutputAndTheCluster() throws {
        let ignored = Set(try read(".dockerignore").split(separator: "\n").map(String.init))
        #expect(ignored.isSuperset(of: [".build*", ".pipeline"]), "\(ignored)")
    }
}
