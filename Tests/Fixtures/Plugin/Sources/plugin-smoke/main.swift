import APIRuntime
import ChatClient
import CommittedClient
import Foundation
import NotesClient

// `plugin-smoke BASE_URL`: calls the loopback server `server.py` runs (`make plugin`) through
// code each of apigen's plugins generated, and exits 1 unless every reply is the one expected.
guard let baseURL = CommandLine.arguments.dropFirst().first else {
    print("usage: plugin-smoke BASE_URL")
    exit(2)
}
APIManager.bootstrap {
    $0.baseURLOverrides = [
        "https://chat.example.com/v1": baseURL,
        "https://notes.example.com/v1": baseURL,
        "https://status.example.com": baseURL,
    ]
}

func expect<T: Equatable>(_ actual: T, _ expected: T, _ what: String) {
    guard actual == expected else {
        print("error: \(what): \(actual), expected \(expected)")
        exit(1)
    }
    print("ok: \(what) = \(actual)")
}

do {
    let user = try await GetUserAPI(id: 7).start()                 // REST, APIGenGRPCPlugin
    expect(user.balance, Money(cents: 1250), "GetUser(7).balance")
    let open = try await CountInvoicesAPI(state: .open).start()    // a manifest in a subfolder
    expect(open, 3, "CountInvoices(open)")
    let difference = try await SubtractAPI(minuend: 42, subtrahend: 23).start() // JSON-RPC
    expect(difference, 19, "Subtract(42, 23)")
    let note = try await GetNoteAPI(id: 5).start()                 // REST, APIGenPlugin
    expect(note.title, "Plugins", "GetNote(5).title")
    expect(note.isPublished, true, "GetNote(5).isPublished")
    let status = try await GetStatusAPI().start()                  // committed, command plugin
    expect(status.healthy, true, "GetStatus().healthy")
    // gRPC: the messages protoc-gen-swift wrote and the API class apigen wrote, both compiled.
    var greeting = Helloworld_HelloRequest()
    greeting.name = "plugin"
    _ = SayHelloAPI(greeting)
    expect(SayHelloAPI.definition.name, "SayHello", "SayHelloAPI.definition.name")
} catch {
    print("error: \(error)")
    exit(1)
}
