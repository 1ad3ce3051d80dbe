import APIRuntime
import Testing

/// Runs `body` with a manager made from `configuration`, shut down afterwards whatever happens:
/// at once, cancelling what a test left running rather than giving it a grace period.
public func withManager<T>(_ configuration: APIManager.Configuration, body: (APIManager) async throws -> T) async throws -> T {
    let manager = APIManager(configuration: configuration)
    do {
        let result = try await body(manager)
        await manager.shutdown(gracePeriod: .zero)
        return result
    } catch {
        await manager.shutdown(gracePeriod: .zero)
        throw error
    }
}

/// The `APIError` a call threw; nil (and a recorded issue) when it succeeded or threw something else.
public func expectAPIError<T>(
    _ call: () async throws -> T,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> APIError? {
    do {
        let value = try await call()
        Issue.record("expected an APIError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as APIError {
        return error
    } catch {
        Issue.record("expected an APIError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
