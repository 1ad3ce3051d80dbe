import APIRuntime
import Foundation
import NotesClient

// `notes [base URL]`: lists the notes a server holds, through the default transport (URLSession).
if let baseURL = CommandLine.arguments.dropFirst().first {
    APIManager.bootstrap { $0.baseURLOverrides = ["https://notes.example.com/v1": baseURL] }
}
do {
    let page = try await ListNotesAPI(state: .published).start()
    for note in page.items {
        print("\(note.id)\t\(note.state)\t\(note.title)")
    }
} catch {
    print("error: \(error)")
    exit(1)
}
