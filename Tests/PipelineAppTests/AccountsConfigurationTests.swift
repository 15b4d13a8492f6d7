import PipelineApp
import PipelineCore
import Testing

@Suite struct AccountsConfigurationTests {
    private func load(_ yaml: String, environment: [String: String] = [:]) throws -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        try ConfigurationLoader.apply(yaml: yaml, fileName: "pipeline.yaml", to: &configuration)
        try ConfigurationLoader.applyEnvironment(environment, to: &configuration)
        return configuration
    }

    @Test func aMappingChangesOnlyTheNamesItGives() throws {
        let configuration = try load(
            """
            accounts:
              categories:
                Groceries: Expenses:Household:Food
                "Food & Dining": Expenses:Eating-Out
              payments:
                card: Liabilities:Visa
            """)
        #expect(configuration.accounts.categories["Groceries"] == "Expenses:Household:Food")
        #expect(configuration.accounts.categories["Food & Dining"] == "Expenses:Eating-Out")
        #expect(configuration.accounts.categories["Fuel"] == "Expenses:Transportation:Fuel")
        #expect(configuration.accounts.payments["card"] == "Liabilities:Visa")
        #expect(configuration.accounts.payments["cash"] == "Assets:Cash")
    }

    @Test func theEnvironmentFormIsNameEqualsAccountPairs() throws {
        let configuration = try load(
            "", environment: ["PIPELINE_ACCOUNTS_PAYMENTS": "cash=Assets:Wallet, unknown=Equity:Unsorted"])
        #expect(configuration.accounts.payments["cash"] == "Assets:Wallet")
        #expect(configuration.accounts.payments["unknown"] == "Equity:Unsorted")
    }

    @Test func accountsTheToolsWouldRefuseAreRefusedAtLoadNamingTheKey() {
        for yaml in [
            "accounts:\n  categories:\n    Groceries: Food\n",  // no root account
            "accounts:\n  categories:\n    Groceries: expenses:food\n",  // lower case
            "accounts:\n  categories:\n    Groceries: Expenses:Food Stuff\n",  // a space
            "accounts:\n  categories:\n    Snacks: Expenses:Snacks\n",  // not a category
            "accounts:\n  payments:\n    crypto: Assets:Coins\n",  // not a payment method
        ] {
            do {
                _ = try load(yaml)
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error is ConfigurationError)
                #expect(String(describing: error).contains("pipeline.yaml:3:"), "names the line: \(error)")
                #expect(String(describing: error).contains("'accounts."), "names the key: \(error)")
            }
        }
    }
}
