/// The keys of a completion's encoded form, the same as Combine's: `{"success": true}` for
/// `.finished`, `{"success": false, "error": ...}` for a failure.
private enum CompletionCodingKeys: String, CodingKey {
  case success
  case error
}

extension Subscribers.Completion: Encodable where Failure: Encodable {
  /// Encodes the completion as `{"success": true}` or `{"success": false, "error": ...}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CompletionCodingKeys.self)
    switch self {
    case .finished:
      try container.encode(true, forKey: .success)
    case .failure(let error):
      try container.encode(false, forKey: .success)
      try container.encode(error, forKey: .error)
    }
  }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
  /// Decodes a completion encoded by ``encode(to:)``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CompletionCodingKeys.self)
    if try container.decode(Bool.self, forKey: .success) {
      self = .finished
    } else {
      self = .failure(try container.decode(Failure.self, forKey: .error))
    }
  }
}
