/// A reply and the request as sent that it answers: the last attempt's, whose credentials and
/// account say whose reply it is (a credential added after a challenge, or refreshed, is on it).
struct AnsweredRequest: Sendable {
    var response: APIResponse
    let request: OutgoingRequest
}
