import NIOConcurrencyHelpers

/// The underlying error of calls made after `APIManager.shutdown()`.
public struct ManagerShutDown: Error, CustomStringConvertible {
    /// `the API manager has been shut down`.
    public var description: String { "the API manager has been shut down" }
}

/// `APIManager.shared`, made once from the configuration `bootstrap` gave.
final class SharedManager: Sendable {
    static let instance = SharedManager()

    private enum State {
        case configuring(APIManager.Configuration, bootstrapped: Bool)
        case made(APIManager)
    }

    /// Guards the configuration until the manager is made, then the manager.
    private let state = NIOLockedValueBox(State.configuring(APIManager.Configuration(), bootstrapped: false))

    var manager: APIManager {
        state.withLockedValue { state in
            switch state {
            case .made(let manager):
                return manager
            case .configuring(let configuration, _):
                let manager = APIManager(configuration: configuration)
                state = .made(manager)
                return manager
            }
        }
    }

    func bootstrap(_ configure: (inout APIManager.Configuration) -> Void) {
        state.withLockedValue { state in
            switch state {
            case .configuring(var configuration, bootstrapped: false):
                configure(&configuration)
                state = .configuring(configuration, bootstrapped: true)
            case .configuring(_, bootstrapped: true):
                preconditionFailure("APIManager.bootstrap may be called only once")
            case .made:
                preconditionFailure("APIManager.bootstrap must be called before APIManager.shared is first used")
            }
        }
    }
}
