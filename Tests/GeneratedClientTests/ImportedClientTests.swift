import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import ImportedClient
import Testing
import WireTestSupport

/// Clients imported from published OpenAPI documents (Tests/Fixtures/Imported) calling a loopback
/// server: the query, path, reply headers, declared error bodies and whole-body values that
/// `apigen import openapi` made from them travel as the documents say.
@Suite("Clients imported from OpenAPI documents, on a loopback server")
struct ImportedClientTests {
    @Test("listPets: the limit in the query, [Pet] decoded, the x-next reply header read")
    func listPets() async throws {
        try await withServer({ _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json", HTTPField.Name("x-next")!: "/v1/pets?page=2"],
                body: .init(byteBuffer: .init(string: #"[{"id": 1, "name": "Rex", "tag": "dog"}, {"id": 2, "name": "Tom"}]"#))
            )
        }) { server, manager in
            let api = ListPetsAPI(limit: 2).using(manager)
            api.options.baseURL = server.baseURL + "/v1"
            let (pets, headers) = try await api.startWithHeaders()
            #expect(pets == [Pet(id: 1, name: "Rex", tag: "dog"), Pet(id: 2, name: "Tom")])
            #expect(headers.xNext == "/v1/pets?page=2")
            #expect(server.requests.last?.target == "/v1/pets?limit=2")
        }
    }

    @Test("showPetById: the id in the path; the document's default error body decodes as ErrorModel")
    func showPetAndError() async throws {
        try await withServer({ request in
            request.target.hasSuffix("/pets/7")
                ? .json(#"[{"id": 7, "name": "Rex"}]"#)
                : .json(#"{"code": 404, "message": "no such pet"}"#, status: .notFound)
        }) { server, manager in
            let found = ShowPetByIdAPI(petId: "7").using(manager)
            found.options.baseURL = server.baseURL + "/v1"
            let pets = try await found.start()
            #expect(pets == [Pet(id: 7, name: "Rex")])

            let missing = ShowPetByIdAPI(petId: "a b").using(manager)
            missing.options.baseURL = server.baseURL + "/v1"
            let error = await expectAPIError { try await missing.start() }
            #expect(server.requests.last?.target == "/v1/pets/a%20b")
            #expect(error?.serverError as? ErrorModel == ErrorModel(code: 404, message: "no such pet"))
        }
    }

    @Test("createUser: the User is the whole JSON body; a reply without the write-only member decodes with its default")
    func createUser() async throws {
        try await withServer({ _ in .json(#"{"id": 1, "name": "Ada"}"#) }) { server, manager in
            let api = CreateUserAPI(body: User(id: 0, name: "Ada", hidden: false)).using(manager)
            api.options.baseURL = server.baseURL
            let user = try await api.start()
            #expect(user == User(id: 1, name: "Ada", hidden: true))
            #expect(server.requests.last?.method == .post)
            #expect(server.requests.last?.bodyText == #"{"hidden":false,"id":0,"name":"Ada"}"#)
        }
    }
}
