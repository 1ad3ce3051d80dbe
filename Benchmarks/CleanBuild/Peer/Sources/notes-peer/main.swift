import Foundation
import NotesPeerClient
import OpenAPIURLSession

// `notes-peer`: lists the published notes, as `notes` does in Tests/Fixtures/RESTOnly.
let client = Client(serverURL: URL(string: "https://notes.example.com/v1")!, transport: URLSessionTransport())
let page = try await client.listNotes(query: .init(state: .published)).ok.body.json
for note in page.items {
    print("\(note.id)\t\(note.state)\t\(note.title)")
}
