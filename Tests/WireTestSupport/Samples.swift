/// Replies the wire tests answer with.
public enum Samples {
    /// A user as the example workspace's `User`, every member set.
    public static let userJSON = """
        {"id": 7, "name": "Ann", "email_address": "ann@example.com", "role": "admin",
         "address": {"street": "1 Main St", "city": "Springfield", "postal_code": "12345",
                     "location": {"latitude": 1.5, "longitude": -2.25}},
         "tags": ["a", "b"], "created_at": "2024-05-01T12:30:00.250Z", "avatar": "https://img.example.com/7.png"}
        """
}
