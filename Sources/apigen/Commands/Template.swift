import APIGenCommands
import APIGenKit
import APIManifest
import ArgumentParser

struct Template: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the built-in templates, or print one to start a custom template from.",
        subcommands: [List.self, Cat.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the built-in templates.")

        func run() {
            for name in TemplateSet.names {
                let role = TemplateSet.purpose[name] ?? name
                print("\(name).mustache".padding(toLength: 22, withPad: " ", startingAt: 0) + role)
            }
        }
    }

    struct Cat: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a built-in template. Save it as templates/NAME.mustache to override it."
        )

        @Argument(help: "The template's name, as 'apigen template list' shows it (with or without .mustache).")
        var name: String

        func run() throws {
            let bare = name.hasSuffix(".mustache") ? String(name.dropLast(".mustache".count)) : name
            guard let text = TemplateSet.builtinSources[bare] else {
                Console.error("apigen: no built-in template '\(bare)'\(Suggestion.hint(for: bare, in: TemplateSet.names)); run 'apigen template list'")
                throw ExitCode.failure
            }
            print(text, terminator: "")
        }
    }
}
